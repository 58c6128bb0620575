// Spring bone reference: three-vrm 3.5.5 (@pixiv/three-vrm's VRMSpringBoneLoaderPlugin, on
// three 0.187) swings FILE's spring bones while the avatar moves along a path and then stands
// still, 60 steps a second; each frame's placement and the world translation and rotation of
// every node of the swinging chains (named `ponytail.N`, `lock.N`, `tail.N`) are written.
//
//   node springs.mjs FILE.vrm OUT.json
//
// Each frame places the avatar, brings every world matrix up to date, then steps the springs.
// Frame 0 is three-vrm's `reset` at the first placement. A VRM 0.x avatar is turned half round
// about +Y, as three-vrm's `VRMUtils.rotateVRM0` turns it.
//
// One change to three-vrm: it measures each bone's length from its child's world matrix as the
// last frame left it, which for a chain's second joint on is a step late (the joints above have
// turned since), so its bones stretch and shrink a little as the body moves. The specification's
// `boneLength` is the bone's own; here each joint's child is brought up to date before it is
// measured.
import fs from 'node:fs';
import * as THREE from 'three';
import { VRMSpringBoneLoaderPlugin } from '@pixiv/three-vrm';
import { loadGLTF } from '../oracle.mjs';

const [file, outFile] = process.argv.slice(2);
if (!outFile) {
  process.stdout.write('usage: node springs.mjs FILE.vrm OUT.json\n');
  process.exit(2);
}
const FRAMES = 180;
const DT = 1 / 60;
// The path: weaving forwards, bobbing and turning for 2 s, then standing where it stopped.
const placement = (t) => {
  const s = Math.min(t, 2.0);
  const position = new THREE.Vector3(0.8 * Math.sin(1.7 * s), 0.04 * Math.sin(9 * s), 1.4 * s);
  const turn = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), 0.9 * Math.sin(2.3 * s));
  return new THREE.Matrix4().compose(position, turn, new THREE.Vector3(1, 1, 1));
};

const gltf = await loadGLTF(file, [(parser) => new VRMSpringBoneLoaderPlugin(parser)]);
const manager = gltf.userData.vrmSpringBoneManager;
if (!manager) throw new Error('no spring bones in ' + file);
for (const joint of manager.joints) {
  const measure = joint._calcWorldSpaceBoneLength.bind(joint);
  joint._calcWorldSpaceBoneLength = () => {
    joint.child?.updateWorldMatrix(false, false, true);
    measure();
  };
}
const vrm0 = gltf.parser.json.extensions.VRMC_vrm === undefined;
const facing = new THREE.Matrix4().makeRotationY(vrm0 ? Math.PI : 0);
const scene = gltf.scene;
scene.matrixAutoUpdate = false;
// The loader takes the dots out of names: the file's own are found by node index.
const chains = [];
scene.traverse((o) => {
  const index = gltf.parser.associations.get(o)?.nodes;
  const name = index === undefined ? undefined : gltf.parser.json.nodes[index].name;
  if (/^(ponytail|lock|tail)\.\d+$/.test(name ?? '')) chains.push([name, o]);
});
const digits = (x) => Number(x.toPrecision(9));
const frames = [];
for (let f = 0; f <= FRAMES; f++) {
  const at = placement(f * DT);
  scene.matrix.multiplyMatrices(at, facing);
  scene.updateMatrixWorld(true);
  if (f === 0) manager.reset();
  else manager.update(DT);
  scene.updateMatrixWorld(true);
  const nodes = {};
  for (const [name, o] of chains) {
    const [p, q, s] = [new THREE.Vector3(), new THREE.Quaternion(), new THREE.Vector3()];
    o.matrixWorld.decompose(p, q, s);
    nodes[name] = [...p.toArray(), ...q.toArray()].map(digits);
  }
  frames.push({ placement: at.toArray().map(digits), nodes });
}
fs.writeFileSync(outFile, JSON.stringify({ file: file.split('/').pop(), three_vrm: '3.5.5', dt: DT, frames }) + '\n');
process.stdout.write(`wrote ${outFile}: ${frames.length} frames, ${chains.length} nodes, ${manager.joints.size} joints\n`);
