#!/usr/bin/env node
// Writes diffuse_roughness.gltf next to this script (plain Node 20, no npm packages; CC0 1.0,
// the project's own): six rough spheres (specular roughness 1) whose diffuse
// KHR_materials_diffuse_roughness makes rough, two rows of three:
//   top     white: Lambert's (no extension), diffuse roughness 0.5, 1;
//   bottom  orange clay: Lambert's, 0.5, 1.
// The render reference in ../../oracle/render draws it (three.js's MeshPhysicalMaterial draws
// the rough diffuse); Khronos's glTF-Validator reports no error, and that it does not know the
// extension.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GltfWriter } from '../lib/gltf_writer.mjs';
import { sphereAccessors } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter('props tests/models/diffuse_roughness/make.mjs', ['KHR_materials_diffuse_roughness']);
const json = writer.json;

const { attributes, indices } = sphereAccessors(writer);

const colours = [['white', [0.8, 0.8, 0.8, 1]], ['clay', [0.8, 0.35, 0.12, 1]]];
let k = 0;
for (const [colour, baseColorFactor] of colours) {
  for (const roughness of [null, 0.5, 1]) {
    const name = `${colour}_${roughness ?? 'lambert'}`;
    json.materials.push({
      name,
      pbrMetallicRoughness: { baseColorFactor, metallicFactor: 0, roughnessFactor: 1 },
      ...(roughness === null ? {} : { extensions: { KHR_materials_diffuse_roughness: { diffuseRoughnessFactor: roughness } } }),
    });
    json.meshes.push({ name, primitives: [{ attributes, indices, material: k }] });
    json.nodes.push({ name, mesh: k, translation: [(k % 3) * 1.1 - 1.1, 0.55 - Math.floor(k / 3) * 1.1, 0] });
    json.scenes[0].nodes.push(k);
    k++;
  }
}

writer.write(path.join(HERE, 'diffuse_roughness.gltf'));
