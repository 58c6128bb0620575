#!/usr/bin/env node
// Writes material_variants.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the
// project's own): four spheres in a row, in KHR_materials_variants' two variants and their own
// materials, as a car's liveries would be:
//   mesh "body", two primitives: its paint (off-white; "taxi": yellow; "police": blue and white
//   bands of a texture) and its window (opaque grey; "taxi": blended tinted glass; "police":
//   not mapped, its own);
//   mesh "trim": red ("taxi" and "police" both, one mapping: chrome);
//   mesh "plain": green, mapped in neither.
// The render references in ../../oracle/render draw it in each variant (three.js's loader
// reads a file's own materials; the reference script gives each mapped primitive its mapped
// material, as the extension says); Khronos's glTF-Validator reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARRAY_BUFFER, FLOAT, GltfWriter } from '../lib/gltf_writer.mjs';
import { dataUri, png } from '../lib/png.mjs';
import { sphere, sphereAccessors } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const VARIANTS = 'KHR_materials_variants';

const writer = new GltfWriter('props tests/models/material_variants/make.mjs', [VARIANTS], {
  [VARIANTS]: { variants: [{ name: 'taxi' }, { name: 'police' }] },
});
const json = writer.json;
const [TAXI, POLICE] = [0, 1];

const { attributes, indices } = sphereAccessors(writer);
// The window: the same sphere 1.1 along x, in the body's mesh.
const shifted = sphere().p.map((c, i) => (i % 3 === 0 ? c + 1.1 : c));
const windowAttributes = { ...attributes, POSITION: writer.accessor(shifted, 'VEC3', FLOAT, true, ARRAY_BUFFER) };

// Eight bands along u, blue and white.
json.images = [{ uri: dataUri('image/png', png([Array.from({ length: 8 }, (_, i) => (i % 2 ? [240, 240, 240, 255] : [20, 40, 160, 255]))])) }];
json.samplers = [{ magFilter: 9728, minFilter: 9728 }];
json.textures = [{ source: 0, sampler: 0 }];

const pbr = (baseColorFactor, roughnessFactor, metallicFactor = 0) => ({ baseColorFactor, metallicFactor, roughnessFactor });
json.materials = [
  { name: 'paint', pbrMetallicRoughness: pbr([0.8, 0.8, 0.78, 1], 0.5) },
  { name: 'window', pbrMetallicRoughness: pbr([0.3, 0.3, 0.35, 1], 0.2) },
  { name: 'trim', pbrMetallicRoughness: pbr([0.7, 0.05, 0.05, 1], 0.6) },
  { name: 'plain', pbrMetallicRoughness: pbr([0.2, 0.6, 0.3, 1], 0.6) },
  { name: 'taxi_paint', pbrMetallicRoughness: pbr([0.9, 0.65, 0.05, 1], 0.4) },
  { name: 'police_paint', pbrMetallicRoughness: { ...pbr([1, 1, 1, 1], 0.5), baseColorTexture: { index: 0 } } },
  { name: 'tinted_glass', alphaMode: 'BLEND', pbrMetallicRoughness: pbr([0.2, 0.3, 0.45, 0.4], 0.1) },
  { name: 'chrome', pbrMetallicRoughness: pbr([0.9, 0.9, 0.9, 1], 0.15, 1) },
];
const mapped = (...mappings) => ({ extensions: { [VARIANTS]: { mappings } } });
json.meshes = [
  {
    name: 'body',
    primitives: [
      { attributes, indices, material: 0, ...mapped({ variants: [TAXI], material: 4 }, { variants: [POLICE], material: 5 }) },
      { attributes: windowAttributes, indices, material: 1, ...mapped({ variants: [TAXI], material: 6 }) },
    ],
  },
  { name: 'trim', primitives: [{ attributes, indices, material: 2, ...mapped({ variants: [TAXI, POLICE], material: 7 }) }] },
  { name: 'plain', primitives: [{ attributes, indices, material: 3 }] },
];
json.nodes = [
  { name: 'body', mesh: 0, translation: [-1.65, 0, 0] },
  { name: 'trim', mesh: 1, translation: [0.55, 0, 0] },
  { name: 'plain', mesh: 2, translation: [1.65, 0, 0] },
];
json.scenes[0].nodes = [0, 1, 2];

writer.write(path.join(HERE, 'material_variants.gltf'));
