#!/usr/bin/env node
// Writes punctual_lights.gltf next to this script (plain Node 20, no npm packages): a ground,
// a white box and a gold metal box lit by KHR_lights_punctual lights only (a warm point light
// with a range, a cool spot light pointing down without one, a dim blue point light without
// one). The render reference in ../../oracle/render draws it with the file's lights and no
// sun; Khronos's glTF-Validator reports no issue.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FLOAT, USHORT, GltfWriter } from '../lib/gltf_writer.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

const writer = new GltfWriter('props tests/models/lights/make.mjs', ['KHR_lights_punctual'], { KHR_lights_punctual: { lights: [] } });
const json = writer.json;
const accessor = writer.accessor.bind(writer);

// A box from `lo` to `hi` (24 vertices, flat normals).
function box(lo, hi) {
  const p = [], nrm = [], idx = [];
  const faces = [
    [[1, 0, 0], [[hi[0], lo[1], hi[2]], [hi[0], lo[1], lo[2]], [hi[0], hi[1], lo[2]], [hi[0], hi[1], hi[2]]]],
    [[-1, 0, 0], [[lo[0], lo[1], lo[2]], [lo[0], lo[1], hi[2]], [lo[0], hi[1], hi[2]], [lo[0], hi[1], lo[2]]]],
    [[0, 1, 0], [[lo[0], hi[1], hi[2]], [hi[0], hi[1], hi[2]], [hi[0], hi[1], lo[2]], [lo[0], hi[1], lo[2]]]],
    [[0, -1, 0], [[lo[0], lo[1], lo[2]], [hi[0], lo[1], lo[2]], [hi[0], lo[1], hi[2]], [lo[0], lo[1], hi[2]]]],
    [[0, 0, 1], [[lo[0], lo[1], hi[2]], [hi[0], lo[1], hi[2]], [hi[0], hi[1], hi[2]], [lo[0], hi[1], hi[2]]]],
    [[0, 0, -1], [[hi[0], lo[1], lo[2]], [lo[0], lo[1], lo[2]], [lo[0], hi[1], lo[2]], [hi[0], hi[1], lo[2]]]],
  ];
  for (const [n, quad] of faces) {
    const base = p.length / 3;
    for (const v of quad) { p.push(...v); nrm.push(...n); }
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return { p, nrm, idx };
}
// A flat square `half` metres each way at y = 0, cut into `cells` x `cells` quads (so that
// per-vertex work is not what the picture shows).
function ground(half, cells) {
  const p = [], nrm = [], idx = [];
  for (let j = 0; j <= cells; j++) for (let i = 0; i <= cells; i++) {
    p.push(-half + (2 * half * i) / cells, 0, -half + (2 * half * j) / cells);
    nrm.push(0, 1, 0);
  }
  for (let j = 0; j < cells; j++) for (let i = 0; i < cells; i++) {
    const a = j * (cells + 1) + i;
    idx.push(a, a + cells + 1, a + 1, a + 1, a + cells + 1, a + cells + 2);
  }
  return { p, nrm, idx };
}
function mesh(name, shape, material) {
  const attributes = {
    POSITION: accessor(shape.p, 'VEC3', FLOAT, true, 34962),
    NORMAL: accessor(shape.nrm, 'VEC3', FLOAT, false, 34962),
  };
  const indices = accessor(shape.idx, 'SCALAR', USHORT, false, 34963);
  json.meshes.push({ name, primitives: [{ attributes, indices, material }] });
  return json.meshes.length - 1;
}
function material(name, baseColorFactor, metallicFactor, roughnessFactor) {
  json.materials.push({ name, pbrMetallicRoughness: { baseColorFactor, metallicFactor, roughnessFactor } });
  return json.materials.length - 1;
}
function light(def) {
  json.extensions.KHR_lights_punctual.lights.push(def);
  return json.extensions.KHR_lights_punctual.lights.length - 1;
}
function node(def, root = true) {
  json.nodes.push(def);
  const i = json.nodes.length - 1;
  if (root) json.scenes[0].nodes.push(i);
  return i;
}
// Rotation turning -Z (where a spot points) straight down.
const DOWN = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

const grey = material('ground', [0.6, 0.6, 0.6, 1], 0, 0.9);
const white = material('white', [0.9, 0.9, 0.9, 1], 0, 0.5);
const gold = material('gold', [0.95, 0.8, 0.45, 1], 1, 0.35);
node({ name: 'ground', mesh: mesh('ground', ground(6, 24), grey) });
node({ name: 'white box', mesh: mesh('white box', box([-2, 0, -1.5], [-1, 1, -0.5]), white) });
node({ name: 'gold box', mesh: mesh('gold box', box([1.1, 0, -0.9], [1.9, 0.8, -0.1]), gold) });
node({
  name: 'warm point',
  translation: [-1.0, 1.6, 1.0],
  extensions: { KHR_lights_punctual: { light: light({ name: 'warm', type: 'point', color: [1, 0.6, 0.3], intensity: 8, range: 6 }) } },
});
node({
  name: 'cool spot',
  translation: [1.8, 3.0, 1.2],
  rotation: DOWN,
  extensions: {
    KHR_lights_punctual: {
      light: light({ name: 'cool', type: 'spot', color: [0.8, 0.9, 1], intensity: 30, spot: { innerConeAngle: 0.35, outerConeAngle: 0.6 } }),
    },
  },
});
node({
  name: 'blue point',
  translation: [0.2, 0.5, 2.6],
  extensions: { KHR_lights_punctual: { light: light({ name: 'blue', type: 'point', color: [0.3, 0.5, 1], intensity: 2 }) } },
});

writer.write(path.join(HERE, 'punctual_lights.gltf'));
console.log('wrote punctual_lights.gltf');
