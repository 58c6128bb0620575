#!/usr/bin/env node
// Writes panes.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the project's
// own): four glass panes of KHR_materials_transmission in front of a wall of coloured stripes,
// each smooth, dielectric and thin-walled (no KHR_materials_volume):
//   clear    transmissionFactor 1, white: the wall seen through it, with the sky's reflection;
//   tinted   transmissionFactor 1, base colour green: the wall tinted green;
//   half     transmissionFactor 0.5, white: half glass, half white paint;
//   banded   transmissionFactor 1 times a transmissionTexture of eight bands (R 255 and 0):
//            glass and white paint in turn.
// The render reference in ../../oracle/render draws it (three.js's MeshPhysicalMaterial renders
// the opaque wall first and lets each pane show it); Khronos's glTF-Validator reports no error
// or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, USHORT, GltfWriter } from '../lib/gltf_writer.mjs';
import { dataUri, png } from '../lib/png.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter('props tests/models/transmission/make.mjs', ['KHR_materials_transmission']);
const json = writer.json;

// A unit quad facing +Z, centred on the origin.
const QUAD = {
  p: [-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0],
  nrm: [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1],
  uv: [0, 1, 1, 1, 1, 0, 0, 0],
  idx: [0, 1, 2, 0, 2, 3],
};
const POSITION = writer.accessor(QUAD.p, 'VEC3', FLOAT, true, ARRAY_BUFFER);
const NORMAL = writer.accessor(QUAD.nrm, 'VEC3', FLOAT, false, ARRAY_BUFFER);
const TEXCOORD_0 = writer.accessor(QUAD.uv, 'VEC2', FLOAT, false, ARRAY_BUFFER);
const indices = writer.accessor(QUAD.idx, 'SCALAR', USHORT, false, ELEMENT_ARRAY_BUFFER);

// Eight horizontal bands, full transmission (R 255) and none (R 0), top to bottom.
json.images = [{ uri: dataUri('image/png', png(Array.from({ length: 8 }, (_, j) => {
  const r = j % 2 ? 0 : 255;
  return [[r, 0, 0, 255], [r, 0, 0, 255]];
}))) }];
// Nearest filtering keeps the bands' edges sharp.
json.samplers = [{ magFilter: 9728, minFilter: 9728 }];
json.textures = [{ source: 0, sampler: 0 }];

// A quad of `material` placed at `translation`, scaled by `scale`.
function quad(name, material, translation, scale) {
  const mesh = json.meshes.length;
  json.meshes.push({ name, primitives: [{ attributes: { POSITION, NORMAL, TEXCOORD_0 }, indices, material }] });
  json.nodes.push({ name, mesh, translation, scale });
  json.scenes[0].nodes.push(json.nodes.length - 1);
}

// The wall: ten vertical stripes, two metres behind the panes.
const STRIPES = [[0.8, 0.1, 0.1], [0.95, 0.85, 0.1], [0.1, 0.2, 0.8], [0.9, 0.9, 0.9], [0.05, 0.05, 0.05]];
STRIPES.forEach((rgb, k) => {
  json.materials.push({ name: `wall_${k}`, pbrMetallicRoughness: { baseColorFactor: [...rgb, 1], metallicFactor: 0, roughnessFactor: 0.9 } });
});
for (let s = 0; s < 10; s++) quad(`stripe_${s}`, s % STRIPES.length, [-2.25 + 0.5 * s, 0.6, -1], [0.5, 2.2, 1]);

const panes = [
  ['clear', [1, 1, 1, 1], { transmissionFactor: 1 }],
  ['tinted', [0.35, 0.85, 0.45, 1], { transmissionFactor: 1 }],
  ['half', [1, 1, 1, 1], { transmissionFactor: 0.5 }],
  ['banded', [1, 1, 1, 1], { transmissionFactor: 1, transmissionTexture: { index: 0 } }],
];
panes.forEach(([name, baseColorFactor, transmission], k) => {
  json.materials.push({
    name,
    pbrMetallicRoughness: { baseColorFactor, metallicFactor: 0, roughnessFactor: 0.05 },
    extensions: { KHR_materials_transmission: transmission },
  });
  quad(name, STRIPES.length + k, [-1.65 + 1.1 * k, 0.6, 0], [1, 1.4, 1]);
});

writer.write(path.join(HERE, 'panes.gltf'));
