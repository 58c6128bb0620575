#!/usr/bin/env node
// Writes anisotropy.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the
// project's own): six brushed-gold spheres of roughness 0.4 with tangents (along u, the sphere's
// longitude), two rows of three:
//   top     no KHR_materials_anisotropy; strength 0.5 along the tangent; strength 1;
//   bottom  strength 0.8 turned a quarter turn (along the bitangent); strength 1 times an
//           anisotropyTexture of eight bands along u whose direction is the tangent's, then the
//           bitangent's, in turn; strength 1 times one of eight bands of strength 1 and 0.2.
// The render reference in ../../oracle/render draws it (three.js's MeshPhysicalMaterial draws
// the anisotropy); Khronos's glTF-Validator reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GltfWriter } from '../lib/gltf_writer.mjs';
import { dataUri, png } from '../lib/png.mjs';
import { sphereAccessors, sphereTangents } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter('props tests/models/anisotropy/make.mjs', ['KHR_materials_anisotropy']);
const json = writer.json;

const { attributes, indices } = sphereAccessors(writer);
attributes.TANGENT = sphereTangents(writer);

// Eight bands along u: `on` and `off` in turn.
const bands = (on, off) => [Array.from({ length: 8 }, (_, i) => (i % 2 ? off : on))];
json.images = [
  // Direction (1, 0) then (0, 1) in RG, full strength in B.
  { uri: dataUri('image/png', png(bands([255, 128, 255, 255], [128, 255, 255, 255]))) },
  // Along the tangent, strength 1 then 0.2 in B.
  { uri: dataUri('image/png', png(bands([255, 128, 255, 255], [255, 128, 51, 255]))) },
];
// Nearest filtering keeps the bands' edges sharp.
json.samplers = [{ magFilter: 9728, minFilter: 9728 }];
json.textures = [{ source: 0, sampler: 0 }, { source: 1, sampler: 0 }];

const spheres = [
  ['anisotropy_none', null],
  ['anisotropy_0.5', { anisotropyStrength: 0.5 }],
  ['anisotropy_1', { anisotropyStrength: 1 }],
  ['anisotropy_0.8_turned', { anisotropyStrength: 0.8, anisotropyRotation: Math.PI / 2 }],
  ['anisotropy_direction_bands', { anisotropyStrength: 1, anisotropyTexture: { index: 0 } }],
  ['anisotropy_strength_bands', { anisotropyStrength: 1, anisotropyTexture: { index: 1 } }],
];
spheres.forEach(([name, anisotropy], k) => {
  json.materials.push({
    name,
    pbrMetallicRoughness: { baseColorFactor: [1, 0.77, 0.34, 1], metallicFactor: 1, roughnessFactor: 0.4 },
    ...(anisotropy ? { extensions: { KHR_materials_anisotropy: anisotropy } } : {}),
  });
  json.meshes.push({ name, primitives: [{ attributes, indices, material: k }] });
  json.nodes.push({ name, mesh: k, translation: [(k % 3) * 1.1 - 1.1, 0.55 - Math.floor(k / 3) * 1.1, 0] });
  json.scenes[0].nodes.push(k);
});

writer.write(path.join(HERE, 'anisotropy.gltf'));
