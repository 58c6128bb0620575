#!/usr/bin/env node
// Writes sheen.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the project's
// own): six dark blue, rough cloth spheres with the sheen of KHR_materials_sheen, two rows of
// three:
//   top     no sheen (a black sheenColorFactor); white of sheenRoughnessFactor 0.3; white of 1;
//   bottom  pink of roughness 0.6 (velvet); white times a sheenColorTexture of eight bands
//           (white and black, sRGB) along the sphere's u; white of roughness 1 times a
//           sheenRoughnessTexture of eight bands in A (255 and 60).
// The render reference in ../../oracle/render draws it (three.js's MeshPhysicalMaterial draws
// the sheen); Khronos's glTF-Validator reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GltfWriter } from '../lib/gltf_writer.mjs';
import { dataUri, png } from '../lib/png.mjs';
import { sphereAccessors } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter('props tests/models/sheen/make.mjs', ['KHR_materials_sheen']);
const json = writer.json;

const { attributes, indices } = sphereAccessors(writer);

// Eight bands along u: `on` and `off` in turn.
const bands = (on, off) => [Array.from({ length: 8 }, (_, i) => (i % 2 ? off : on))];
json.images = [
  { uri: dataUri('image/png', png(bands([255, 255, 255, 255], [0, 0, 0, 255]))) },
  { uri: dataUri('image/png', png(bands([255, 255, 255, 255], [255, 255, 255, 60]))) },
];
// Nearest filtering keeps the bands' edges sharp.
json.samplers = [{ magFilter: 9728, minFilter: 9728 }];
json.textures = [{ source: 0, sampler: 0 }, { source: 1, sampler: 0 }];

const spheres = [
  ['sheen_none', { sheenColorFactor: [0, 0, 0] }],
  ['sheen_white_0.3', { sheenColorFactor: [1, 1, 1], sheenRoughnessFactor: 0.3 }],
  ['sheen_white_1', { sheenColorFactor: [1, 1, 1], sheenRoughnessFactor: 1 }],
  ['sheen_pink_0.6', { sheenColorFactor: [1, 0.4, 0.6], sheenRoughnessFactor: 0.6 }],
  ['sheen_color_bands', { sheenColorFactor: [1, 1, 1], sheenColorTexture: { index: 0 }, sheenRoughnessFactor: 0.5 }],
  ['sheen_roughness_bands', { sheenColorFactor: [1, 1, 1], sheenRoughnessFactor: 1, sheenRoughnessTexture: { index: 1 } }],
];
spheres.forEach(([name, sheen], k) => {
  json.materials.push({
    name,
    pbrMetallicRoughness: { baseColorFactor: [0.02, 0.03, 0.12, 1], metallicFactor: 0, roughnessFactor: 0.9 },
    extensions: { KHR_materials_sheen: sheen },
  });
  json.meshes.push({ name, primitives: [{ attributes, indices, material: k }] });
  json.nodes.push({ name, mesh: k, translation: [(k % 3) * 1.1 - 1.1, 0.55 - Math.floor(k / 3) * 1.1, 0] });
  json.scenes[0].nodes.push(k);
});

writer.write(path.join(HERE, 'sheen.gltf'));
