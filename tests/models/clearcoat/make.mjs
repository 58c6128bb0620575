#!/usr/bin/env node
// Writes clearcoat.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the
// project's own): six smooth spheres of one red, fairly rough car paint under a clear coat
// (KHR_materials_clearcoat factors), two rows of three:
//   top     clearcoatFactor 0, 0.5 and 1, clearcoatRoughnessFactor 0 (a lacquer's mirror);
//   bottom  clearcoatFactor 1, clearcoatRoughnessFactor 0.2, 0.5 and 1.
// The render reference in ../../oracle/render draws it (three.js's MeshPhysicalMaterial draws
// the coat); Khronos's glTF-Validator reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, USHORT, GltfWriter } from '../lib/gltf_writer.mjs';
import { sphere } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter('props tests/models/clearcoat/make.mjs', ['KHR_materials_clearcoat']);
const json = writer.json;

const shape = sphere();
const POSITION = writer.accessor(shape.p, 'VEC3', FLOAT, true, ARRAY_BUFFER);
const NORMAL = writer.accessor(shape.nrm, 'VEC3', FLOAT, false, ARRAY_BUFFER);
const indices = writer.accessor(shape.idx, 'SCALAR', USHORT, false, ELEMENT_ARRAY_BUFFER);

const spheres = [
  ['coat_0', 0, 0], ['coat_half', 0.5, 0], ['coat_1', 1, 0],
  ['coat_rough_0.2', 1, 0.2], ['coat_rough_0.5', 1, 0.5], ['coat_rough_1', 1, 1],
];
spheres.forEach(([name, clearcoatFactor, clearcoatRoughnessFactor], k) => {
  json.materials.push({
    name,
    pbrMetallicRoughness: { baseColorFactor: [0.6, 0.02, 0.03, 1], metallicFactor: 0, roughnessFactor: 0.55 },
    extensions: { KHR_materials_clearcoat: { clearcoatFactor, clearcoatRoughnessFactor } },
  });
  json.meshes.push({ name, primitives: [{ attributes: { POSITION, NORMAL }, indices, material: k }] });
  json.nodes.push({ name, mesh: k, translation: [(k % 3) * 1.1 - 1.1, 0.55 - Math.floor(k / 3) * 1.1, 0] });
  json.scenes[0].nodes.push(k);
});

writer.write(path.join(HERE, 'clearcoat.gltf'));
