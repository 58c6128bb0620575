#!/usr/bin/env node
// Writes morph_colors.gltf next to this script (plain Node 20, no npm packages; CC0 1.0, the
// project's own): morph targets that displace vertex colours (COLOR_0 in a primitive's
// `targets`, which glTF allows and three.js draws), on three spheres of one primitive before a
// grey wall and floor, each sphere its own mesh with its own default weights:
//   left    [0, 0]: the base colours alone (white at the top to grey at the bottom, VEC4 floats);
//   middle  [1, 0]: target 0, an RGB target (VEC3 floats) towards red, its positions bulged;
//   right   [0.5, 0.5]: both, target 1 an RGBA target of normalized shorts that turns the upper
//           half blue.
// The render reference in ../../oracle/render draws it in three.js. Khronos's glTF-Validator
// reports no error or warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, GltfWriter, USHORT } from '../lib/gltf_writer.mjs';
import { sphere } from '../lib/shapes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SHORT = 5122;

const writer = new GltfWriter('props tests/models/morph_colors/make.mjs', []);
const json = writer.json;
const vec3 = (values, minMax = false) => writer.accessor(values, 'VEC3', FLOAT, minMax, ARRAY_BUFFER);

function material(name, baseColorFactor) {
  json.materials.push({ name, pbrMetallicRoughness: { baseColorFactor, metallicFactor: 0, roughnessFactor: 0.7 } });
  return json.materials.length - 1;
}

// The wall (z = -0.8) and the floor (y = -0.6), facing the camera and up.
const [x0, x1, y0, y1, z0, z1] = [-2.4, 2.4, -0.6, 1.4, -0.8, 1.2];
const wall = vec3([x0, y0, z0, x1, y0, z0, x1, y1, z0, x0, y1, z0, x0, y0, z1, x1, y0, z1, x1, y0, z0, x0, y0, z0], true);
const up = vec3([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0]);
const quads = writer.accessor([0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7], 'SCALAR', USHORT, false, ELEMENT_ARRAY_BUFFER);
json.meshes.push({ name: 'backdrop', primitives: [{ attributes: { POSITION: wall, NORMAL: up }, indices: quads, material: material('grey', [0.5, 0.5, 0.5, 1]) }] });
json.nodes.push({ name: 'backdrop', mesh: 0 });
json.scenes[0].nodes.push(0);

// The sphere: white at the top to grey at the bottom.
const shape = sphere(0.5, 48, 24);
const r = 0.5;
const shade = [], bulge = [], red = [], blue = [];
for (let k = 0; k < shape.p.length / 3; k++) {
  const [x, y, z] = shape.p.slice(3 * k, 3 * k + 3);
  const g = 0.55 + 0.4 * (y / r + 1) / 2;
  shade.push(g, g, g, 1);
  // Target 0: a bulge towards the viewer, and the colour towards red.
  const front = Math.max(0, z / r);
  bulge.push(0, 0, 0.25 * front * front);
  red.push(0.9 - g, 0.1 - g, 0.1 - g);
  // Target 1: the upper half towards blue, as normalized shorts (alpha unmoved).
  const upper = y > 0 ? 1 : 0;
  blue.push(upper * (0.15 - g), upper * (0.3 - g), upper * (0.95 - g), 0);
}
const attributes = {
  POSITION: vec3(shape.p, true),
  NORMAL: vec3(shape.nrm),
  COLOR_0: writer.accessor(shade, 'VEC4', FLOAT, false, ARRAY_BUFFER),
};
const indices = writer.accessor(shape.idx, 'SCALAR', USHORT, false, ELEMENT_ARRAY_BUFFER);
const shorts = Buffer.from(new Int16Array(blue.map((c) => Math.round(c * 32767))).buffer);
json.accessors.push({ bufferView: writer.view(shorts, ARRAY_BUFFER), componentType: SHORT, normalized: true, count: blue.length / 4, type: 'VEC4' });
const blueTarget = json.accessors.length - 1;
// Each target moves every attribute any target moves: three.js (0.187) displaces an attribute a
// target leaves out by the base attribute itself, not by nothing as glTF's morph targets do.
const still = vec3(bulge.map(() => 0), true);
const targets = [{ POSITION: vec3(bulge, true), COLOR_0: vec3(red) }, { POSITION: still, COLOR_0: blueTarget }];
const white = material('white', [1, 1, 1, 1]);
for (const [x, weights] of [[-1.3, [0, 0]], [0, [1, 0]], [1.3, [0.5, 0.5]]]) {
  json.meshes.push({ name: `sphere ${weights}`, primitives: [{ attributes, indices, material: white, targets }], weights });
  json.nodes.push({ name: `sphere ${weights}`, mesh: json.meshes.length - 1, translation: [x, -0.05, 0] });
  json.scenes[0].nodes.push(json.nodes.length - 1);
}

delete json.extensionsUsed;
writer.write(path.join(HERE, 'morph_colors.gltf'));
