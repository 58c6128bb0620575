#!/usr/bin/env node
// Writes specular_ior.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the
// project's own): nine smooth spheres of one dark, slightly rough dielectric, three rows of
// three, whose dielectric specular KHR_materials_ior and KHR_materials_specular set:
//   default        neither extension: glTF's 4 % reflectance;
//   ior_1          ior 1: no reflectance facing the viewer (the rim still reflects);
//   ior_3          ior 3: 25 %;
//   specular_0     specularFactor 0: no specular at all;
//   specular_red   ior 2.5 and specularColorFactor (1, 0.15, 0.15): a red reflection;
//   gold_like      black, ior 1000 and specularColorFactor (1, 0.75, 0.3): how glTF-Transform's
//                  `metalrough` writes a spec/gloss gold;
//   strength_bands ior 3 and a specularTexture of eight bands, full strength and none (in A);
//   colour_bands   ior 3 and a specularColorTexture of eight bands, red and cyan (sRGB);
//   gold_silver    black, ior 1000, a specularColorTexture of gold and silver bands: a textured
//                  spec/gloss metal as glTF-Transform writes it.
// The render reference in ../../oracle/render draws it (three.js's MeshPhysicalMaterial takes
// both extensions); Khronos's glTF-Validator reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GltfWriter } from '../lib/gltf_writer.mjs';
import { dataUri, png } from '../lib/png.mjs';
import { sphereAccessors } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter('props tests/models/specular/make.mjs', ['KHR_materials_ior', 'KHR_materials_specular']);
const json = writer.json;

const { attributes, indices } = sphereAccessors(writer);

// Eight bands from pole to pole, alternating `a` and `b` (2 x 8 texels).
const bands = (a, b) => Array.from({ length: 8 }, (_, j) => [j % 2 ? b : a, j % 2 ? b : a]);
json.images = [
  { uri: dataUri('image/png', png(bands([255, 255, 255, 255], [255, 255, 255, 0]))) },
  { uri: dataUri('image/png', png(bands([255, 40, 40, 255], [40, 255, 255, 255]))) },
  { uri: dataUri('image/png', png(bands([255, 190, 80, 255], [200, 200, 200, 255]))) },
];
// Nearest filtering keeps the bands' edges sharp.
json.samplers = [{ magFilter: 9728, minFilter: 9728 }];
json.textures = json.images.map((_, source) => ({ source, sampler: 0 }));

const DARK = [0.08, 0.09, 0.12, 1];
const spheres = [
  ['default', DARK, {}],
  ['ior_1', DARK, { KHR_materials_ior: { ior: 1 } }],
  ['ior_3', DARK, { KHR_materials_ior: { ior: 3 } }],
  ['specular_0', DARK, { KHR_materials_specular: { specularFactor: 0 } }],
  ['specular_red', DARK, { KHR_materials_ior: { ior: 2.5 }, KHR_materials_specular: { specularColorFactor: [1, 0.15, 0.15] } }],
  ['gold_like', [0, 0, 0, 1], { KHR_materials_ior: { ior: 1000 }, KHR_materials_specular: { specularColorFactor: [1, 0.75, 0.3] } }],
  ['strength_bands', DARK, { KHR_materials_ior: { ior: 3 }, KHR_materials_specular: { specularTexture: { index: 0 } } }],
  ['colour_bands', DARK, { KHR_materials_ior: { ior: 3 }, KHR_materials_specular: { specularColorTexture: { index: 1 } } }],
  ['gold_silver', [0, 0, 0, 1], { KHR_materials_ior: { ior: 1000 }, KHR_materials_specular: { specularColorTexture: { index: 2 } } }],
];
spheres.forEach(([name, baseColorFactor, extensions], k) => {
  const material = { name, pbrMetallicRoughness: { baseColorFactor, metallicFactor: 0, roughnessFactor: 0.35 } };
  if (Object.keys(extensions).length) material.extensions = extensions;
  json.materials.push(material);
  json.meshes.push({ name, primitives: [{ attributes, indices, material: k }] });
  json.nodes.push({ name, mesh: k, translation: [(k % 3) * 1.1 - 1.1, 1.1 - Math.floor(k / 3) * 1.1, 0] });
  json.scenes[0].nodes.push(k);
});

writer.write(path.join(HERE, 'specular_ior.gltf'));
