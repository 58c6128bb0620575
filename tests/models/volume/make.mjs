#!/usr/bin/env node
// Writes slabs.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the project's
// own): four panes of smooth glass (KHR_materials_transmission 1, KHR_materials_volume) 2 cm
// thick in the world, in front of a wall of coloured stripes, each a box whose front face is
// at z = 0, single-sided (thin, so that three.js's refraction through them shifts the wall by
// less than a pixel: the game draws no refraction):
//   clear    thicknessFactor 0.02, no attenuation: the wall seen through clear glass;
//   green    thicknessFactor 0.02, attenuationColor (0.3, 0.9, 0.4) over 2 cm: the wall kept
//            by that colour;
//   amber    thicknessFactor 0.02, attenuationColor (0.95, 0.6, 0.2) over 1 cm: kept by its
//            square (twice the distance);
//   scaled   a box half the size in its own units (thicknessFactor 0.01), its node scaled 2x:
//            attenuationColor (0.4, 0.6, 0.95) over 2 cm, kept by that colour only where the
//            thickness is scaled as the mesh is in the world (by its square root where not).
// The render reference in ../../oracle/render draws it (three.js's MeshPhysicalMaterial renders
// the opaque wall first and lets each slab show it, refracted through its thickness); Khronos's
// glTF-Validator reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, USHORT, GltfWriter } from '../lib/gltf_writer.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter('props tests/models/volume/make.mjs', ['KHR_materials_transmission', 'KHR_materials_volume']);
const json = writer.json;

// A box of size (w, h, d) whose front face (+Z) lies at z = 0: 24 vertices, flat normals.
function box([w, h, d]) {
  const p = [], nrm = [], idx = [];
  const faces = [
    [[0, 0, 1], [1, 0, 0], [0, 1, 0]],
    [[0, 0, -1], [-1, 0, 0], [0, 1, 0]],
    [[1, 0, 0], [0, 0, -1], [0, 1, 0]],
    [[-1, 0, 0], [0, 0, 1], [0, 1, 0]],
    [[0, 1, 0], [1, 0, 0], [0, 0, -1]],
    [[0, -1, 0], [1, 0, 0], [0, 0, 1]],
  ];
  for (const [n, u, v] of faces) {
    const base = p.length / 3;
    for (const [su, sv] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
      const c = [0, 1, 2].map((k) => 0.5 * (n[k] + su * u[k] + sv * v[k]));
      p.push(c[0] * w, c[1] * h, (c[2] - 0.5) * d);
      nrm.push(...n);
    }
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  const primitive = {
    attributes: {
      POSITION: writer.accessor(p, 'VEC3', FLOAT, true, ARRAY_BUFFER),
      NORMAL: writer.accessor(nrm, 'VEC3', FLOAT, false, ARRAY_BUFFER),
    },
    indices: writer.accessor(idx, 'SCALAR', USHORT, false, ELEMENT_ARRAY_BUFFER),
  };
  return primitive;
}

// A mesh of `primitive` drawn with `material`, placed at `translation`, scaled by `scale`.
function place(name, primitive, material, translation, scale) {
  const mesh = json.meshes.length;
  json.meshes.push({ name, primitives: [{ ...primitive, material }] });
  json.nodes.push({ name, mesh, translation, ...(scale ? { scale } : {}) });
  json.scenes[0].nodes.push(json.nodes.length - 1);
}

// The wall: ten vertical stripes, two metres behind the slabs.
const STRIPES = [[0.8, 0.1, 0.1], [0.95, 0.85, 0.1], [0.1, 0.2, 0.8], [0.9, 0.9, 0.9], [0.05, 0.05, 0.05]];
STRIPES.forEach((rgb, k) => {
  json.materials.push({ name: `wall_${k}`, pbrMetallicRoughness: { baseColorFactor: [...rgb, 1], metallicFactor: 0, roughnessFactor: 0.9 } });
});
const stripe = box([0.5, 2.2, 0.01]);
for (let s = 0; s < 10; s++) place(`stripe_${s}`, stripe, s % STRIPES.length, [-2.25 + 0.5 * s, 0.6, -2]);

const slab = box([1, 1.4, 0.02]);
const half = box([0.5, 0.7, 0.01]);
const slabs = [
  ['clear', slab, { thicknessFactor: 0.02 }, undefined],
  ['green', slab, { thicknessFactor: 0.02, attenuationColor: [0.3, 0.9, 0.4], attenuationDistance: 0.02 }, undefined],
  ['amber', slab, { thicknessFactor: 0.02, attenuationColor: [0.95, 0.6, 0.2], attenuationDistance: 0.01 }, undefined],
  ['scaled', half, { thicknessFactor: 0.01, attenuationColor: [0.4, 0.6, 0.95], attenuationDistance: 0.02 }, [2, 2, 2]],
];
slabs.forEach(([name, primitive, volume, scale], k) => {
  json.materials.push({
    name,
    pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], metallicFactor: 0, roughnessFactor: 0.05 },
    extensions: { KHR_materials_transmission: { transmissionFactor: 1 }, KHR_materials_volume: volume },
  });
  place(name, primitive, STRIPES.length + k, [-1.65 + 1.1 * k, 0.6, 0], scale);
});

writer.write(path.join(HERE, 'slabs.gltf'));
