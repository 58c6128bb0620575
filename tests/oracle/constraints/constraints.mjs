// Node constraint reference: three-vrm 3.5.5 (@pixiv/three-vrm's VRMNodeConstraintLoaderPlugin,
// on three 0.187) runs FILE's `VRMC_node_constraint`s on 61 frames of motion; each frame's local
// transform of every node before the constraints run, and world matrix of every node of the
// scene after, are written, by the file's node index.
//
//   node constraints.mjs FILE.vrm OUT.json
//
// The motion: the file's first clip over its duration where it has one (an AnimationMixer
// on the scene), else every node turned about its rest by a wobble of its own over two
// seconds. Each frame sets the locals, runs the constraints (`manager.update()`, which brings
// the world matrices it reads up to date itself), then brings every world matrix up to date.
// No change to three-vrm.
import fs from 'node:fs';
import * as THREE from 'three';
import { VRMNodeConstraintLoaderPlugin } from '@pixiv/three-vrm';
import { loadGLTF } from '../oracle.mjs';

const [file, outFile] = process.argv.slice(2);
if (!outFile) {
  process.stdout.write('usage: node constraints.mjs FILE.vrm OUT.json\n');
  process.exit(2);
}
const FRAMES = 60;

const gltf = await loadGLTF(file, [(parser) => new VRMNodeConstraintLoaderPlugin(parser)]);
const manager = gltf.userData.vrmNodeConstraintManager;
if (!manager) throw new Error('no node constraints in ' + file);
const nodes = await gltf.parser.getDependencies('node');
const rests = nodes.map((o) => o.quaternion.clone());
const clip = gltf.animations[0];
const mixer = new THREE.AnimationMixer(gltf.scene);
if (clip) mixer.clipAction(clip).play();
const duration = clip ? clip.duration : 2.0;
const digits = (x) => Number(x.toPrecision(9));
// A node outside the scene (an unused one) is not posed: its world matrix is written null.
const inScene = (o) => {
  for (let at = o; at; at = at.parent) if (at === gltf.scene) return true;
  return false;
};
const frames = [];
for (let f = 0; f <= FRAMES; f++) {
  const t = (duration * f) / FRAMES;
  if (clip) {
    mixer.setTime(t);
  } else {
    nodes.forEach((o, n) => {
      const wobble = new THREE.Euler(0.5 * Math.sin(1.3 * t + n), 0.4 * Math.sin(0.7 * t + 2 * n), 0.6 * Math.sin(0.9 * t + 3 * n));
      o.quaternion.copy(rests[n]).multiply(new THREE.Quaternion().setFromEuler(wobble));
    });
  }
  const locals = nodes.map((o) => [...o.position.toArray(), ...o.quaternion.toArray(), ...o.scale.toArray()].map(digits));
  gltf.scene.updateMatrixWorld(true);
  manager.update();
  gltf.scene.updateMatrixWorld(true);
  const worlds = nodes.map((o) => (inScene(o) ? o.matrixWorld.toArray().map(digits) : null));
  frames.push({ time: digits(t), locals, worlds });
}
const constraints = manager.constraints.size;
fs.writeFileSync(outFile, JSON.stringify({ file: file.split('/').pop(), three_vrm: '3.5.5', clip: clip?.name ?? null, frames }) + '\n');
process.stdout.write(`wrote ${outFile}: ${frames.length} frames, ${nodes.length} nodes, ${constraints} constraints\n`);
