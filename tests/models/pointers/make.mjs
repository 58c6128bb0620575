#!/usr/bin/env node
// Writes the KHR_animation_pointer test models in this folder (plain Node 20, no npm packages).
// Usage: node make.mjs            (writes pointer_*.gltf next to this script)
//
// Every file is a self-contained glTF 2.0 JSON file: one buffer, embedded as a base64 data URI,
// images (2x2 PNGs, drawn here) likewise. Key times are odd multiples of 1/16 s (exact in float32,
// and never on the oracle's automatic sample times k*D/16 with D = 2), except where a STEP key
// sits on purpose on an automatic time (0.5, 1.5) to pin down "exactly at a key -> that key".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataUri, png } from '../lib/png.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// ---------------------------------------------------------------- PNG (2x2 RGBA, drawn here)
const PNG_CHECKER = png([
  [[255, 255, 255, 255], [64, 160, 255, 255]],
  [[255, 128, 32, 255], [255, 255, 255, 255]],
]);
// a flat-ish tangent-space normal map (slightly tilted texels so the scale matters)
const PNG_NORMAL = png([
  [[128, 128, 255, 255], [160, 128, 240, 255]],
  [[128, 160, 240, 255], [100, 100, 245, 255]],
]);

// ---------------------------------------------------------------- glTF builder
const FLOAT = 5126, UBYTE = 5121, USHORT = 5123;
const ARRAY_BUFFER = 34962, ELEMENT_ARRAY_BUFFER = 34963;
const NCOMP = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };

class Builder {
  constructor(name, extensionsUsed) {
    this.name = name;
    this.json = {
      asset: {
        version: '2.0',
        generator: 'props tests/models/pointers/make.mjs',
        copyright: 'CC0 1.0, made by this project',
      },
      extensionsUsed,
      scene: 0,
      scenes: [{ nodes: [] }],
      nodes: [],
      meshes: [],
      accessors: [],
      bufferViews: [],
      buffers: [],
    };
    this.parts = [];
    this.length = 0;
  }
  view(bytes, target) {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) { this.parts.push(Buffer.alloc(pad)); this.length += pad; }
    const bv = { buffer: 0, byteOffset: this.length, byteLength: bytes.byteLength };
    if (target) bv.target = target;
    this.parts.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    this.length += bytes.byteLength;
    this.json.bufferViews.push(bv);
    return this.json.bufferViews.length - 1;
  }
  // values: flat array of numbers; type: SCALAR/VEC2/...; componentType FLOAT (default) / UBYTE / USHORT
  accessor(values, type, { componentType = FLOAT, target, minmax = true, normalized } = {}) {
    const Arr = componentType === FLOAT ? Float32Array : componentType === UBYTE ? Uint8Array : Uint16Array;
    const arr = Arr.from(values);
    const n = NCOMP[type];
    if (arr.length % n) throw new Error(`${this.name}: accessor length ${arr.length} not a multiple of ${n}`);
    const acc = { bufferView: this.view(arr, target), componentType, count: arr.length / n, type };
    if (normalized) acc.normalized = true;
    if (minmax) {
      const min = new Array(n).fill(Infinity), max = new Array(n).fill(-Infinity);
      for (let i = 0; i < arr.length; i++) {
        min[i % n] = Math.min(min[i % n], arr[i]);
        max[i % n] = Math.max(max[i % n], arr[i]);
      }
      acc.min = min; acc.max = max;
    }
    this.json.accessors.push(acc);
    return this.json.accessors.length - 1;
  }
  // a unit quad in the XY plane facing +Z; optional morph targets (arrays of 4 POSITION deltas)
  quadMesh(name, { material, morphTargets, tangents, weights } = {}) {
    const pos = [-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0];
    const nrm = [0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1];
    const uv = [0, 1, 1, 1, 1, 0, 0, 0];
    const attributes = {
      POSITION: this.accessor(pos, 'VEC3', { target: ARRAY_BUFFER }),
      NORMAL: this.accessor(nrm, 'VEC3', { target: ARRAY_BUFFER, minmax: false }),
      TEXCOORD_0: this.accessor(uv, 'VEC2', { target: ARRAY_BUFFER, minmax: false }),
    };
    if (tangents) attributes.TANGENT = this.accessor([1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1], 'VEC4', { target: ARRAY_BUFFER, minmax: false });
    const prim = {
      attributes,
      indices: this.accessor([0, 1, 2, 0, 2, 3], 'SCALAR', { componentType: USHORT, target: ELEMENT_ARRAY_BUFFER }),
      mode: 4,
    };
    if (material !== undefined) prim.material = material;
    if (morphTargets) prim.targets = morphTargets.map((d) => ({ POSITION: this.accessor(d.flat(), 'VEC3', { target: ARRAY_BUFFER }) }));
    const mesh = { name, primitives: [prim] };
    if (weights) mesh.weights = weights;
    this.json.meshes.push(mesh);
    return this.json.meshes.length - 1;
  }
  node(n, root = false) {
    this.json.nodes.push(n);
    const i = this.json.nodes.length - 1;
    if (root) this.json.scenes[0].nodes.push(i);
    return i;
  }
  // keys: times; values: flat output values (for CUBICSPLINE: in,value,out per key, flattened)
  sampler(anim, times, values, type, interpolation, outOpts = {}) {
    const input = this.accessor(times, 'SCALAR');
    const output = this.accessor(values, type, outOpts);
    anim.samplers.push({ input, interpolation, output });
    return anim.samplers.length - 1;
  }
  pointerChannel(anim, pointer, times, values, type, interpolation, outOpts) {
    const sampler = this.sampler(anim, times, values, type, interpolation, outOpts);
    anim.channels.push({ sampler, target: { path: 'pointer', extensions: { KHR_animation_pointer: { pointer } } } });
  }
  animation(name) {
    this.json.animations = this.json.animations || [];
    const a = { name, channels: [], samplers: [] };
    this.json.animations.push(a);
    return a;
  }
  images() {
    this.json.images = [
      { name: 'checker', uri: dataUri('image/png', PNG_CHECKER) },
      { name: 'flat_normal', uri: dataUri('image/png', PNG_NORMAL) },
    ];
    this.json.samplers = [{ magFilter: 9729, minFilter: 9987, wrapS: 10497, wrapT: 10497 }];
    this.json.textures = [{ sampler: 0, source: 0 }, { sampler: 0, source: 1 }];
  }
  write() {
    const bin = Buffer.concat(this.parts);
    this.json.buffers = [{ byteLength: bin.length, uri: dataUri('application/octet-stream', bin) }];
    const order = ['asset', 'extensionsUsed', 'extensions', 'scene', 'scenes', 'nodes', 'cameras', 'meshes', 'materials',
      'textures', 'images', 'samplers', 'animations', 'accessors', 'bufferViews', 'buffers'];
    const out = {};
    for (const k of order) if (this.json[k] !== undefined) out[k] = this.json[k];
    for (const k of Object.keys(this.json)) if (!(k in out)) out[k] = this.json[k];
    const file = path.join(HERE, `${this.name}.gltf`);
    fs.writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
    console.log(`wrote ${path.relative(process.cwd(), file)} (${bin.length} buffer bytes)`);
  }
}

// ---------------------------------------------------------------- math helpers
function axisAngle(axis, deg) {
  const l = Math.hypot(...axis);
  const h = (deg * Math.PI) / 360;
  const s = Math.sin(h) / l;
  return [axis[0] * s, axis[1] * s, axis[2] * s, Math.cos(h)];
}
const neg = (q) => q.map((c) => -c);
const cubic = (keys) => keys.flatMap(([inT, v, outT]) => [...inT, ...v, ...outT]);

// ---------------------------------------------------------------- 1. nodes
{
  const b = new Builder('pointer_nodes', ['KHR_animation_pointer']);
  b.json.materials = [{ name: 'grey', pbrMetallicRoughness: { baseColorFactor: [0.8, 0.8, 0.8, 1], metallicFactor: 0, roughnessFactor: 0.8 } }];
  const quad = b.quadMesh('quad', { material: 0 });
  const morph = b.quadMesh('morph_quad', {
    material: 0,
    weights: [0, 0],
    morphTargets: [
      [[0, 0, 0], [0, 0, 0], [0, 0, 0.5], [0, 0, 0.5]],
      [[0, 0, 0], [0.3, 0, 0], [0.3, 0, 0], [0, 0, 0]],
    ],
  });
  const mover = b.node({ name: 'Mover', mesh: quad, translation: [0, 0, 0] });
  const morpher = b.node({ name: 'Morpher', mesh: morph, translation: [2, 0, 0] });
  b.node({ name: 'Root', children: [mover, morpher] }, true);

  const A = [1, 2, 3];
  const q0 = axisAngle(A, 0);
  const q1 = axisAngle(A, 170); // 0 -> 170 deg in one segment: slerp and nlerp differ a lot
  const q2 = neg(axisAngle(A, 340)); // stored with dot(q1, q2) < 0: shortest-path flip needed
  const q3 = axisAngle([-1, 1, 0.5], 95);

  // animation 0: LINEAR translation, LINEAR (slerp) rotation, CUBICSPLINE scale, LINEAR weights
  const a0 = b.animation('NodeTRSW');
  b.pointerChannel(a0, `/nodes/${mover}/translation`, [0, 0.3125, 1.1875, 2.0],
    [0, 0, 0, 1, 0.5, -0.25, -0.5, 1.5, 0.75, 0.25, -1, 2], 'VEC3', 'LINEAR');
  b.pointerChannel(a0, `/nodes/${mover}/rotation`, [0, 0.6875, 1.3125, 2.0],
    [...q0, ...q1, ...q2, ...q3], 'VEC4', 'LINEAR');
  b.pointerChannel(a0, `/nodes/${mover}/scale`, [0, 0.8125, 2.0], cubic([
    [[0, 0, 0], [1, 1, 1], [0.5, -0.3, 0.8]],
    [[1.2, 0.4, -0.6], [1.5, 0.8, 1.2], [-0.7, 0.9, 0.3]],
    [[0.2, -0.5, 0.4], [0.9, 1.3, 1.0], [0, 0, 0]],
  ]), 'VEC3', 'CUBICSPLINE');
  b.pointerChannel(a0, `/nodes/${morpher}/weights`, [0, 0.4375, 1.5625, 2.0],
    [0, 0, 1, 0.25, 0.2, 0.9, 0.5, 0.5], 'SCALAR', 'LINEAR');

  // animation 1: STEP translation (a key exactly on the automatic time 0.5), CUBICSPLINE rotation
  // (spec: normalize the result), CUBICSPLINE weights
  const a1 = b.animation('NodeStepCubic');
  b.pointerChannel(a1, `/nodes/${mover}/translation`, [0, 0.5, 1.3125, 2.0],
    [0, 0, 0, 1, 1, 0, -1, 0.5, 0.5, 0.5, -0.5, 1], 'VEC3', 'STEP');
  const r0 = axisAngle([0, 1, 0], 10), r1 = axisAngle([1, 1, 0], 120), r2 = axisAngle([0, 0, 1], -60);
  b.pointerChannel(a1, `/nodes/${mover}/rotation`, [0, 0.9375, 2.0], cubic([
    [[0, 0, 0, 0], r0, [0.3, 0.2, -0.1, 0.05]],
    [[-0.2, 0.4, 0.1, -0.3], r1, [0.25, -0.1, 0.3, 0.1]],
    [[0.1, 0.1, -0.2, 0.2], r2, [0, 0, 0, 0]],
  ]), 'VEC4', 'CUBICSPLINE');
  b.pointerChannel(a1, `/nodes/${morpher}/weights`, [0, 1.0625, 2.0], [
    0, 0, 0, 0, 1.5, -0.5, // key 0: in[2], value[2], out[2]
    0.4, 0.8, 0.6, 0.3, -1.0, 0.7,
    0.2, -0.2, 0.1, 1.0, 0, 0,
  ], 'SCALAR', 'CUBICSPLINE');
  b.write();
}

// ---------------------------------------------------------------- 2. material factors
{
  const b = new Builder('pointer_material', ['KHR_animation_pointer', 'KHR_materials_emissive_strength']);
  b.images();
  b.json.materials = [{
    name: 'animated',
    pbrMetallicRoughness: {
      baseColorFactor: [1, 0.5, 0.25, 1],
      baseColorTexture: { index: 0 },
      metallicFactor: 0.2,
      roughnessFactor: 0.7,
    },
    normalTexture: { index: 1, scale: 1 },
    occlusionTexture: { index: 0, strength: 1 },
    emissiveFactor: [0.1, 0.2, 0.3],
    alphaMode: 'MASK',
    alphaCutoff: 0.5,
    extensions: { KHR_materials_emissive_strength: { emissiveStrength: 2 } },
  }];
  const quad = b.quadMesh('quad', { material: 0, tangents: true });
  b.node({ name: 'Panel', mesh: quad }, true);
  const a = b.animation('MaterialFactors');
  const M = '/materials/0';
  b.pointerChannel(a, `${M}/pbrMetallicRoughness/baseColorFactor`, [0, 0.3125, 1.1875, 2.0],
    [1, 0.5, 0.25, 1, 0.2, 0.9, 0.4, 0.6, 0.0, 0.3, 1.0, 0.25, 0.7, 0.7, 0.1, 0.9], 'VEC4', 'LINEAR');
  b.pointerChannel(a, `${M}/pbrMetallicRoughness/metallicFactor`, [0, 0.5, 1.3125, 2.0],
    [0.2, 0.9, 0.4, 1.0], 'SCALAR', 'STEP');
  // starts late and ends early: held at its first / last key outside [0.3125, 1.6875]
  b.pointerChannel(a, `${M}/pbrMetallicRoughness/roughnessFactor`, [0.3125, 1.0625, 1.6875],
    [0.7, 0.15, 0.55], 'SCALAR', 'LINEAR');
  b.pointerChannel(a, `${M}/emissiveFactor`, [0, 0.9375, 2.0], cubic([
    [[0, 0, 0], [0.1, 0.2, 0.3], [1.0, -0.4, 0.6]],
    [[0.5, 0.8, -0.9], [0.9, 0.3, 0.6], [-0.3, 0.2, 0.4]],
    [[-0.6, 0.5, 0.2], [0.2, 0.8, 1.0], [0, 0, 0]],
  ]), 'VEC3', 'CUBICSPLINE');
  b.pointerChannel(a, `${M}/alphaCutoff`, [0, 1.0625, 2.0], [0.5, 0.1, 0.8], 'SCALAR', 'LINEAR');
  b.pointerChannel(a, `${M}/normalTexture/scale`, [0, 0.6875, 2.0], [1, 0.25, 2], 'SCALAR', 'LINEAR');
  // ends early: held at 0.3 after 1.1875
  b.pointerChannel(a, `${M}/occlusionTexture/strength`, [0, 1.1875], [1, 0.3], 'SCALAR', 'LINEAR');
  // starts late: held at 2 before 0.4375
  b.pointerChannel(a, `${M}/extensions/KHR_materials_emissive_strength/emissiveStrength`, [0.4375, 2.0],
    [2, 6.5], 'SCALAR', 'LINEAR');
  b.write();
}

// ---------------------------------------------------------------- 3. texture transforms
{
  const b = new Builder('pointer_texture_transform', ['KHR_animation_pointer', 'KHR_texture_transform']);
  b.images();
  b.json.materials = [{
    name: 'transformed',
    pbrMetallicRoughness: {
      baseColorTexture: { index: 0, extensions: { KHR_texture_transform: { offset: [0.1, 0.2], rotation: 0.3, scale: [1, 1] } } },
      metallicFactor: 0,
      roughnessFactor: 0.6,
    },
    emissiveTexture: { index: 0, extensions: { KHR_texture_transform: { offset: [0, 0] } } },
    emissiveFactor: [1, 1, 1],
    normalTexture: { index: 1, extensions: { KHR_texture_transform: { rotation: 0 } } },
  }];
  const quad = b.quadMesh('quad', { material: 0, tangents: true });
  b.node({ name: 'Panel', mesh: quad }, true);
  const a = b.animation('TextureTransforms');
  const B = '/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform';
  b.pointerChannel(a, `${B}/offset`, [0, 0.3125, 1.1875, 2.0],
    [0.1, 0.2, 0.5, -0.25, -0.3, 0.75, 0.0, 1.0], 'VEC2', 'LINEAR');
  b.pointerChannel(a, `${B}/rotation`, [0, 0.8125, 2.0], [0.3, -1.2, 2.5], 'SCALAR', 'LINEAR');
  b.pointerChannel(a, `${B}/scale`, [0, 0.5625, 1.4375, 2.0],
    [1, 1, 2, 0.5, 0.5, 3, 1.5, 1.25], 'VEC2', 'LINEAR');
  // STEP, with a key exactly on the automatic time 1.5
  b.pointerChannel(a, '/materials/0/emissiveTexture/extensions/KHR_texture_transform/offset', [0, 0.6875, 1.5, 2.0],
    [0, 0, 0.25, 0.5, -0.5, 0.125, 0.75, -0.75], 'VEC2', 'STEP');
  b.pointerChannel(a, '/materials/0/normalTexture/extensions/KHR_texture_transform/rotation', [0, 1.0625, 2.0], cubic([
    [[0], [0], [2.0]],
    [[-1.5], [1.0], [0.5]],
    [[0.8], [-0.5], [0]],
  ]), 'SCALAR', 'CUBICSPLINE');
  b.write();
}

// ---------------------------------------------------------------- 4. node visibility
{
  const b = new Builder('pointer_visibility', ['KHR_animation_pointer', 'KHR_node_visibility']);
  b.json.materials = [{ name: 'blue', pbrMetallicRoughness: { baseColorFactor: [0.1, 0.2, 0.9, 1], metallicFactor: 0, roughnessFactor: 1 } }];
  const quad = b.quadMesh('quad', { material: 0 });
  const childB = b.node({ name: 'B', mesh: quad, translation: [0, 1.25, 0] });
  const nodeA = b.node({ name: 'A', mesh: quad, children: [childB], extensions: { KHR_node_visibility: { visible: true } } }, true);
  const nodeC = b.node({ name: 'C', mesh: quad, translation: [1.5, 0, 0], extensions: { KHR_node_visibility: { visible: false } } }, true);
  const a = b.animation('Blink');
  // KHR_animation_pointer: bool properties take a SCALAR UNSIGNED_BYTE (not normalized) accessor,
  // 0 = false, anything else = true, and MUST use STEP interpolation.
  b.pointerChannel(a, `/nodes/${nodeA}/extensions/KHR_node_visibility/visible`, [0, 0.5, 1.0625, 1.5, 2.0],
    [1, 0, 1, 0, 1], 'SCALAR', 'STEP', { componentType: UBYTE });
  b.pointerChannel(a, `/nodes/${nodeC}/extensions/KHR_node_visibility/visible`, [0, 0.3125, 1.6875],
    [0, 1, 0], 'SCALAR', 'STEP', { componentType: UBYTE });
  b.write();
}

// ---------------------------------------------------------------- 5. punctual lights
{
  const b = new Builder('pointer_lights', ['KHR_animation_pointer', 'KHR_lights_punctual']);
  b.json.extensions = {
    KHR_lights_punctual: {
      lights: [
        { name: 'point', type: 'point', color: [1, 0.9, 0.8], intensity: 5, range: 10 },
        { name: 'spot', type: 'spot', color: [0.8, 0.9, 1], intensity: 20, range: 25, spot: { innerConeAngle: 0.2, outerConeAngle: 0.6 } },
      ],
    },
  };
  b.json.materials = [{ name: 'white', pbrMetallicRoughness: { baseColorFactor: [1, 1, 1, 1], metallicFactor: 0, roughnessFactor: 0.5 } }];
  const quad = b.quadMesh('floor', { material: 0 });
  b.node({ name: 'Floor', mesh: quad, rotation: axisAngle([1, 0, 0], -90), scale: [4, 4, 4] }, true);
  b.node({ name: 'PointLight', translation: [0, 1, 0], extensions: { KHR_lights_punctual: { light: 0 } } }, true);
  b.node({ name: 'SpotLight', translation: [1, 2, 0], rotation: axisAngle([1, 0, 0], -90), extensions: { KHR_lights_punctual: { light: 1 } } }, true);
  const a = b.animation('Lights');
  const L = '/extensions/KHR_lights_punctual/lights';
  b.pointerChannel(a, `${L}/0/color`, [0, 0.3125, 1.1875, 2.0],
    [1, 0.9, 0.8, 0.2, 0.4, 1.0, 1.0, 0.1, 0.1, 0.5, 0.5, 0.5], 'VEC3', 'LINEAR');
  b.pointerChannel(a, `${L}/0/intensity`, [0, 0.8125, 2.0], [5, 40, 0.5], 'SCALAR', 'LINEAR');
  b.pointerChannel(a, `${L}/0/range`, [0, 1.0625, 2.0], [10, 2.5, 6], 'SCALAR', 'LINEAR');
  // same key times for inner and outer, outer - inner >= 0.4 at every key, so inner < outer at all times
  b.pointerChannel(a, `${L}/1/spot/innerConeAngle`, [0, 0.5625, 1.4375, 2.0], [0.2, 0.1, 0.45, 0.3], 'SCALAR', 'LINEAR');
  b.pointerChannel(a, `${L}/1/spot/outerConeAngle`, [0, 0.5625, 1.4375, 2.0], [0.6, 0.5, 0.9, 0.7], 'SCALAR', 'LINEAR');
  b.pointerChannel(a, `${L}/1/intensity`, [0, 0.9375, 2.0], cubic([
    [[0], [20], [30]],
    [[-10], [8], [25]],
    [[40], [35], [0]],
  ]), 'SCALAR', 'CUBICSPLINE');
  b.write();
}

// ---------------------------------------------------------------- 6. bad pointers (not for Babylon)
{
  const b = new Builder('pointer_bad', ['KHR_animation_pointer', 'KHR_materials_foo']);
  b.json.materials = [{
    name: 'glowing',
    pbrMetallicRoughness: { baseColorFactor: [0.5, 0.5, 0.5, 1], metallicFactor: 0, roughnessFactor: 1 },
    emissiveFactor: [0.1, 0.1, 0.1],
    extensions: { KHR_materials_foo: { bar: 1 } },
  }];
  b.json.cameras = [{ name: 'cam', type: 'perspective', perspective: { yfov: 0.8, znear: 0.1, zfar: 100, aspectRatio: 1.5 } }];
  const quad = b.quadMesh('quad', { material: 0 });
  b.node({ name: 'Panel', mesh: quad }, true);
  b.node({ name: 'Camera', camera: 0, translation: [0, 0, 3] }, true);
  const good = (a) => b.pointerChannel(a, '/materials/0/emissiveFactor', [0, 0.3125, 2.0],
    [0.1, 0.1, 0.1, 1, 0.5, 0, 0, 0.5, 1], 'VEC3', 'LINEAR');
  good(b.animation('good'));
  const a1 = b.animation('material_out_of_range');
  b.pointerChannel(a1, '/materials/7/emissiveFactor', [0, 1.0625], [0, 0, 0, 1, 1, 1], 'VEC3', 'LINEAR');
  const a2 = b.animation('output_type_mismatch');
  b.pointerChannel(a2, '/materials/0/emissiveFactor', [0, 0.3125, 2.0], [0.1, 0.5, 0.9], 'SCALAR', 'LINEAR');
  const a3 = b.animation('camera_yfov_plus_good');
  b.pointerChannel(a3, '/cameras/0/perspective/yfov', [0, 1.0625, 2.0], [0.8, 0.4, 1.2], 'SCALAR', 'LINEAR');
  good(a3);
  const a4 = b.animation('unknown_extension_plus_good');
  b.pointerChannel(a4, '/materials/0/extensions/KHR_materials_foo/bar', [0, 1.0625], [1, 3], 'SCALAR', 'LINEAR');
  good(a4);
  b.write();
}
