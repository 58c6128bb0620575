#!/usr/bin/env node
// Writes iridescence.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the
// project's own): six spheres under the thin film of KHR_materials_iridescence, two rows of
// three, dark plastic of roughness 0.35 unless said:
//   top     no film; a film of the extension's defaults (index 1.3, 400 nm); 200 nm;
//   bottom  800 nm of index 1.8; half a film over gold; a film of no thickness (none);
// lit by three white KHR_lights_punctual point lights (before the spheres, left and right
// of them), so that each shows the film towards the view and at grazing angles.
// The render reference in ../../oracle/render draws it (three.js's MeshPhysicalMaterial draws
// the film); Khronos's glTF-Validator reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GltfWriter } from '../lib/gltf_writer.mjs';
import { sphereAccessors } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter(
  'props tests/models/iridescence/make.mjs',
  ['KHR_materials_iridescence', 'KHR_lights_punctual'],
  { KHR_lights_punctual: { lights: [] } },
);
const json = writer.json;

const { attributes, indices } = sphereAccessors(writer);

const plastic = { baseColorFactor: [0.05, 0.05, 0.06, 1], metallicFactor: 0, roughnessFactor: 0.35 };
const gold = { baseColorFactor: [1, 0.77, 0.34, 1], metallicFactor: 1, roughnessFactor: 0.35 };
const spheres = [
  ['film_none', plastic, null],
  ['film_default', plastic, { iridescenceFactor: 1 }],
  ['film_200nm', plastic, { iridescenceFactor: 1, iridescenceThicknessMaximum: 200 }],
  ['film_800nm_ior_1.8', plastic, { iridescenceFactor: 1, iridescenceIor: 1.8, iridescenceThicknessMaximum: 800 }],
  ['film_half_over_gold', gold, { iridescenceFactor: 0.5 }],
  ['film_no_thickness', plastic, { iridescenceFactor: 1, iridescenceThicknessMaximum: 0 }],
];
spheres.forEach(([name, pbr, film], k) => {
  json.materials.push({
    name,
    pbrMetallicRoughness: pbr,
    ...(film ? { extensions: { KHR_materials_iridescence: film } } : {}),
  });
  json.meshes.push({ name, primitives: [{ attributes, indices, material: k }] });
  json.nodes.push({ name, mesh: k, translation: [(k % 3) * 1.1 - 1.1, 0.55 - Math.floor(k / 3) * 1.1, 0] });
  json.scenes[0].nodes.push(k);
});

const lights = [
  ['front', [0.2, 0.6, 3]],
  ['left', [-3.5, 1, 0.5]],
  ['right', [3.5, -0.5, 1]],
];
lights.forEach(([name, translation], k) => {
  json.extensions.KHR_lights_punctual.lights.push({ name, type: 'point', color: [1, 1, 1], intensity: 12 });
  json.nodes.push({ name, translation, extensions: { KHR_lights_punctual: { light: k } } });
  json.scenes[0].nodes.push(json.nodes.length - 1);
});

writer.write(path.join(HERE, 'iridescence.gltf'));
