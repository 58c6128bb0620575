#!/usr/bin/env node
// Writes layer_textures.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the
// project's own): eight spheres whose layers' textures (past the eleven slots every device
// binds) vary along the sphere's u in eight bands, two rows of four:
//   top     a clear coat of factor 1 times a clearcoatTexture of bands 1 and 0 (R), over red;
//           a smooth coat times a clearcoatRoughnessTexture of bands 1 and 0.1 (G); a smooth
//           coat whose clearcoatNormalTexture tilts its normal along u and back in bands (with
//           tangents, and a flat normal map), scale 0.8; a thin film times an iridescenceTexture of bands 1 and 0 (R);
//   bottom  a thin film whose iridescenceThicknessTexture reads 1 and 0 (G) between 100 and
//           700 nm; green glass (transmission and volume) whose thicknessTexture reads 1 and 0.1
//           (G); a clay whose diffuseRoughnessTexture reads 1 and 0 (R); a coat with all three.
// Four white KHR_lights_punctual point lights light them. The render reference in
// ../../oracle/render draws it (three.js's MeshPhysicalMaterial draws
// each texture); Khronos's glTF-Validator reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GltfWriter } from '../lib/gltf_writer.mjs';
import { dataUri, png } from '../lib/png.mjs';
import { sphereAccessors, sphereTangents } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const extensions = [
  'KHR_lights_punctual',
  'KHR_materials_clearcoat',
  'KHR_materials_iridescence',
  'KHR_materials_transmission',
  'KHR_materials_volume',
  'KHR_materials_diffuse_roughness',
];
const writer = new GltfWriter('props tests/models/layer_textures/make.mjs', extensions, { KHR_lights_punctual: { lights: [] } });
const json = writer.json;

const { attributes, indices } = sphereAccessors(writer);
const tangentAttributes = { ...attributes, TANGENT: sphereTangents(writer) };

// Eight bands along u: `on` and `off` in turn.
const bands = (on, off) => [Array.from({ length: 8 }, (_, i) => (i % 2 ? off : on))];
const images = [
  bands([255, 255, 255, 255], [0, 0, 0, 255]), // 1 and 0 in every channel
  bands([255, 255, 255, 255], [255, 26, 255, 255]), // G: 1 and 0.1
  // A normal map tilting the normal along the tangent by about 35 degrees, then back.
  bands([201, 128, 234, 255], [55, 128, 234, 255]),
  // A flat normal map.
  [[[128, 128, 255, 255]]],
];
json.images = images.map((pixels) => ({ uri: dataUri('image/png', png(pixels)) }));
// Nearest filtering keeps the bands' edges sharp.
json.samplers = [{ magFilter: 9728, minFilter: 9728 }];
json.textures = images.map((_, source) => ({ source, sampler: 0 }));
const [ONE_ZERO, G_TENTH, TILTS, FLAT] = [0, 1, 2, 3];

const red = { baseColorFactor: [0.6, 0.05, 0.04, 1], metallicFactor: 0, roughnessFactor: 0.7 };
const dark = { baseColorFactor: [0.05, 0.05, 0.06, 1], metallicFactor: 0, roughnessFactor: 0.3 };
const spheres = [
  ['coat_factor_bands', red, { KHR_materials_clearcoat: { clearcoatFactor: 1, clearcoatTexture: { index: ONE_ZERO } } }],
  ['coat_roughness_bands', red, {
    KHR_materials_clearcoat: { clearcoatFactor: 1, clearcoatRoughnessFactor: 1, clearcoatRoughnessTexture: { index: G_TENTH } },
  }],
  ['coat_normal_bands', red, {
    KHR_materials_clearcoat: { clearcoatFactor: 1, clearcoatNormalTexture: { index: TILTS, scale: 0.8 } },
  }],
  ['film_factor_bands', dark, { KHR_materials_iridescence: { iridescenceFactor: 1, iridescenceTexture: { index: ONE_ZERO } } }],
  ['film_thickness_bands', dark, {
    KHR_materials_iridescence: {
      iridescenceFactor: 1,
      iridescenceThicknessMinimum: 100,
      iridescenceThicknessMaximum: 700,
      iridescenceThicknessTexture: { index: ONE_ZERO },
    },
  }],
  ['glass_thickness_bands', { baseColorFactor: [1, 1, 1, 1], metallicFactor: 0, roughnessFactor: 0.1 }, {
    KHR_materials_transmission: { transmissionFactor: 1 },
    KHR_materials_volume: {
      thicknessFactor: 1,
      thicknessTexture: { index: G_TENTH },
      attenuationDistance: 0.5,
      attenuationColor: [0.2, 0.8, 0.3],
    },
  }],
  ['clay_roughness_bands', { baseColorFactor: [0.8, 0.35, 0.12, 1], metallicFactor: 0, roughnessFactor: 1 }, {
    KHR_materials_diffuse_roughness: { diffuseRoughnessFactor: 1, diffuseRoughnessTexture: { index: ONE_ZERO } },
  }],
  ['coat_all_bands', red, {
    KHR_materials_clearcoat: {
      clearcoatFactor: 1,
      clearcoatTexture: { index: G_TENTH },
      clearcoatRoughnessFactor: 0.5,
      clearcoatRoughnessTexture: { index: ONE_ZERO },
      clearcoatNormalTexture: { index: TILTS },
    },
  }],
];
spheres.forEach(([name, pbrMetallicRoughness, layers], k) => {
  // A coat's normal map comes with a flat normal map of the surface's: with one, three.js reads
  // the file's tangents for the coat's map too (alone, it takes a frame from screen-space
  // derivatives, which on a UV sphere is not the tangents' and not of unit length).
  const tangentsRead = name.startsWith('coat_normal') || name.startsWith('coat_all');
  json.materials.push({ name, pbrMetallicRoughness, extensions: layers, ...(tangentsRead ? { normalTexture: { index: FLAT } } : {}) });
  json.meshes.push({ name, primitives: [{ attributes: tangentsRead ? tangentAttributes : attributes, indices, material: k }] });
  json.nodes.push({ name, mesh: k, translation: [(k % 4) * 1.1 - 1.65, 0.55 - Math.floor(k / 4) * 1.1, 0] });
  json.scenes[0].nodes.push(k);
});

// Four white point lights, before the spheres and to each side, so that every sphere shows
// highlights on several of its bands.
const lights = [
  ['front', [0.2, 0.8, 3]],
  ['left', [-4, 1, 1.5]],
  ['right', [4, -0.5, 1.5]],
  ['below', [-0.5, -2.5, 2.5]],
];
lights.forEach(([name, translation], k) => {
  json.extensions.KHR_lights_punctual.lights.push({ name, type: 'point', color: [1, 1, 1], intensity: 14 });
  json.nodes.push({ name, translation, extensions: { KHR_lights_punctual: { light: k } } });
  json.scenes[0].nodes.push(json.nodes.length - 1);
});

writer.write(path.join(HERE, 'layer_textures.gltf'));
