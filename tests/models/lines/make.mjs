#!/usr/bin/env node
// Writes lines.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the
// project's own): points and lines in every mode glTF has, before a grey wall and floor
// (triangles, which also give three.js's framing its box):
//   left    a sphere in a wire cube (LINES, indexed), red, its material's emission ignored;
//   middle  a circle (LINE_LOOP, not indexed), yellow;
//   right   a helix (LINE_STRIP, indexed) in rainbow vertex colours, in the default material;
//   below   a row of points (POINTS) in vertex colours with alpha; a zigzag (LINE_STRIP) in a
//           four-band texture, sampled NEAREST; green strokes at half alpha, blended (LINES);
//           a cloud of points (POINTS, not indexed) in a white material.
// three.js draws points and lines unlit, a pixel wide, in a PointsMaterial or LineBasicMaterial
// made from the primitive's material (its base colour, texture, alpha and vertex colours); the
// render reference in ../../oracle/render draws it. Khronos's glTF-Validator reports no error
// or warning (only that the sphere's UVs are unused).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, GltfWriter, USHORT } from '../lib/gltf_writer.mjs';
import { dataUri, png } from '../lib/png.mjs';
import { sphereAccessors } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const POINTS = 0, LINES = 1, LINE_LOOP = 2, LINE_STRIP = 3;

const writer = new GltfWriter('props tests/models/lines/make.mjs', []);
const json = writer.json;
const positions = (p) => writer.accessor(p, 'VEC3', FLOAT, true, ARRAY_BUFFER);
const indices = (i) => writer.accessor(i, 'SCALAR', USHORT, false, ELEMENT_ARRAY_BUFFER);

function material(name, baseColorFactor, more = {}) {
  json.materials.push({ name, pbrMetallicRoughness: { baseColorFactor, metallicFactor: 0, roughnessFactor: 1 }, ...more });
  return json.materials.length - 1;
}

function node(name, primitives, translation = [0, 0, 0]) {
  json.meshes.push({ name, primitives });
  json.nodes.push({ name, mesh: json.meshes.length - 1, translation });
  json.scenes[0].nodes.push(json.nodes.length - 1);
}

// The wall (z = -0.6) and the floor (y = -1.3), facing the camera and up.
const grey = material('grey', [0.55, 0.55, 0.55, 1]);
const [x0, x1, y0, y1, z0, z1] = [-2.2, 2.2, -1.3, 1.4, -0.6, 0.8];
const wall = positions([x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0, x0, y0, z1, x1, y0, z1, x1, y0, z0, x0, y0, z0]);
const up = writer.accessor([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0], 'VEC3', FLOAT, false, ARRAY_BUFFER);
node('backdrop', [{ attributes: { POSITION: wall, NORMAL: up }, indices: indices([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7]), material: grey }]);

// A sphere in a wire cube: the cube's twelve edges, red (its green emission ignored, as
// three.js's line material has none).
const sphere = sphereAccessors(writer);
const slate = material('slate', [0.25, 0.3, 0.45, 1]);
const red = material('red', [1, 0.05, 0.05, 1], { emissiveFactor: [0, 1, 0] });
const h = 0.5;
const corners = [];
for (const [x, y, z] of [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1], [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]]) corners.push(x * h, y * h, z * h);
const edges = [0, 1, 1, 2, 2, 3, 3, 0, 4, 5, 5, 6, 6, 7, 7, 4, 0, 4, 1, 5, 2, 6, 3, 7];
node('caged sphere', [
  { attributes: sphere.attributes, indices: sphere.indices, material: slate },
  { attributes: { POSITION: positions(corners) }, indices: indices(edges), material: red, mode: LINES },
], [-1.3, 0.55, 0]);

// A circle of 48 vertices, closed by its mode.
const circle = [];
for (let k = 0; k < 48; k++) circle.push(0.45 * Math.cos((2 * Math.PI * k) / 48), 0.45 * Math.sin((2 * Math.PI * k) / 48), 0);
node('ring', [{ attributes: { POSITION: positions(circle) }, material: material('yellow', [1, 0.85, 0, 1]), mode: LINE_LOOP }], [0, 0.55, 0]);

// A helix of six turns in rainbow colours, in the default material (white).
const helix = [], rainbow = [], order = [];
const turns = 6, steps = 240;
for (let k = 0; k <= steps; k++) {
  const t = k / steps, a = 2 * Math.PI * turns * t;
  helix.push(0.4 * Math.cos(a), -0.45 + 0.9 * t, 0.4 * Math.sin(a));
  rainbow.push(0.5 + 0.5 * Math.cos(2 * Math.PI * t), 0.5 + 0.5 * Math.cos(2 * Math.PI * (t - 1 / 3)), 0.5 + 0.5 * Math.cos(2 * Math.PI * (t - 2 / 3)));
  order.push(k);
}
node('helix', [{
  attributes: { POSITION: positions(helix), COLOR_0: writer.accessor(rainbow, 'VEC3', FLOAT, false, ARRAY_BUFFER) },
  indices: indices(order), mode: LINE_STRIP,
}], [1.3, 0.55, 0]);

// A row of points in colours with alpha (opaque material: the alpha is not seen).
const row = [], tints = [];
for (let j = 0; j < 6; j++) for (let i = 0; i < 40; i++) {
  row.push(-2 + (4 * i) / 39, -0.25 - 0.07 * j, 0.1);
  tints.push(i / 39, j / 5, 1 - i / 39, 0.5);
}
node('point row', [{
  attributes: { POSITION: positions(row), COLOR_0: writer.accessor(tints, 'VEC4', FLOAT, false, ARRAY_BUFFER) },
  indices: indices(Array.from({ length: row.length / 3 }, (_, k) => k)), mode: POINTS,
}]);

// A zigzag in a four-band texture (red, green, blue, white), its u along the zigzag.
const bands = [[[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255]]];
json.images = [{ uri: dataUri('image/png', png(bands)) }];
json.samplers = [{ magFilter: 9728, minFilter: 9728, wrapS: 33071, wrapT: 33071 }];
json.textures = [{ source: 0, sampler: 0 }];
const banded = material('banded', [1, 1, 1, 1]);
json.materials[banded].pbrMetallicRoughness.baseColorTexture = { index: 0 };
const zigzag = [], along = [];
for (let k = 0; k <= 32; k++) {
  zigzag.push(-2 + k / 8, -0.8 + (k % 2 ? 0.12 : 0), 0.2);
  along.push(k / 32, 0.5);
}
node('zigzag', [{
  attributes: { POSITION: positions(zigzag), TEXCOORD_0: writer.accessor(along, 'VEC2', FLOAT, false, ARRAY_BUFFER) },
  material: banded, mode: LINE_STRIP,
}]);

// Green strokes at half alpha, blended over the wall and each other where they cross.
const strokes = [];
for (let k = 0; k < 9; k++) strokes.push(-2 + 0.5 * k, -1.2, 0.3, -1.6 + 0.5 * k, -0.95, 0.3, -2 + 0.5 * k, -0.95, 0.3, -1.6 + 0.5 * k, -1.2, 0.3);
const green = material('half green', [0, 1, 0.2, 0.5], { alphaMode: 'BLEND' });
node('strokes', [{ attributes: { POSITION: positions(strokes) }, material: green, mode: LINES }]);

// A cloud of points, not indexed, in white.
const cloud = [];
let seed = 7;
const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
for (let k = 0; k < 400; k++) cloud.push(-2 + 4 * random(), 1.0 + 0.35 * random(), -0.3 + 0.6 * random());
node('cloud', [{ attributes: { POSITION: positions(cloud) }, material: material('white', [1, 1, 1, 1]), mode: POINTS }]);

delete json.extensionsUsed;
writer.write(path.join(HERE, 'lines.gltf'));
