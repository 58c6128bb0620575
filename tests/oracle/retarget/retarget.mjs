// Retargeting reference: three.js's SkeletonUtils.retargetClip (three 0.187) takes clip CLIP of
// SOURCE's skinned mesh to TARGET's, bones paired by `names.json` (target bone name -> source
// bone name, as the files name them); the retargeted clip is played on TARGET and every paired bone's rotation is
// written, relative to the skinned mesh, at the source clip's key times.
//
//   node retarget.mjs SOURCE.glb CLIP TARGET.glb NAMES.json OUT.json
//
// three.js gives each target bone the world rotation of its source bone: where two rigs agree on
// that (their bones unturned at rest and pointing alike, as this project's humanoids' legs and
// spines do), it is what the project's retargeting must give too.
import fs from 'node:fs';
import * as THREE from 'three';
import { retargetClip } from 'three/examples/jsm/utils/SkeletonUtils.js';
import { loadGLTF } from '../oracle.mjs';

const [sourceFile, clipName, targetFile, namesFile, outFile] = process.argv.slice(2);
if (!outFile) {
  process.stdout.write('usage: node retarget.mjs SOURCE.glb CLIP TARGET.glb NAMES.json OUT.json\n');
  process.exit(2);
}
const skinned = (gltf) => {
  let mesh = null;
  gltf.scene.traverse((o) => { if (!mesh && o.isSkinnedMesh) mesh = o; });
  if (!mesh) throw new Error('no skinned mesh');
  return mesh;
};
const [source, target] = [await loadGLTF(sourceFile), await loadGLTF(targetFile)];
// three.js's loader sanitizes node names (`mixamorig:Hips` is bone `mixamorigHips`).
const sanitized = (name) => THREE.PropertyBinding.sanitizeNodeName(name);
const given = JSON.parse(fs.readFileSync(namesFile, 'utf8'));
const names = Object.fromEntries(Object.entries(given).map(([t, s]) => [sanitized(t), sanitized(s)]));
const clip = source.animations.find((a) => a.name === clipName);
if (!clip) throw new Error('no clip ' + clipName);
const times = Array.from(clip.tracks[0].times);
const [sourceMesh, targetMesh] = [skinned(source), skinned(target)];
source.scene.updateMatrixWorld(true);
target.scene.updateMatrixWorld(true);
const retargeted = retargetClip(targetMesh, sourceMesh, clip, { names });

const mixer = new THREE.AnimationMixer(targetMesh);
mixer.clipAction(retargeted).play();
const bones = Object.keys(given).map((name) => [name, targetMesh.skeleton.getBoneByName(sanitized(name))]);
const meshRotation = targetMesh.getWorldQuaternion(new THREE.Quaternion()).invert();
const frames = times.map((time) => {
  mixer.setTime(time);
  target.scene.updateMatrixWorld(true);
  const rotations = {};
  for (const [name, bone] of bones) {
    const q = meshRotation.clone().multiply(bone.getWorldQuaternion(new THREE.Quaternion()));
    rotations[name] = [q.x, q.y, q.z, q.w];
  }
  return { time, rotations };
});
fs.writeFileSync(outFile, JSON.stringify({ source: sourceFile, clip: clipName, target: targetFile, three: THREE.REVISION, frames }, null, 1) + '\n');
