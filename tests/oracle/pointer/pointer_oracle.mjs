#!/usr/bin/env node
// Reference values for glTF KHR_animation_pointer (and KHR_node_visibility) animations.
//
// Babylon.js (NullEngine, its own glTF loader) loads the file and plays one animation group; at each
// requested time this script reads back, from Babylon's scene objects, the value of every pointer the
// animation targets and converts it to glTF's own semantics. Where Babylon is known to be wrong or
// does not play a target, the value is computed here from the glTF keys by the glTF 2.0 spec
// formulas instead, and marked "source": "spec". See README.md.
//
// Usage: node pointer_oracle.mjs <file.gltf|file.glb> --anim <index> [--times auto|t0,t1,...]
//                                [--digits N] [--out F] [--selftest [--patch-babylon]]
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as BABYLON from '@babylonjs/core';
import '@babylonjs/loaders';
import { SetInterpolationForKey } from '@babylonjs/loaders/glTF/2.0/Extensions/objectModelMapping.js';
import { AnimationPropertyInfo } from '@babylonjs/loaders/glTF/2.0/glTFLoaderAnimation.js';

const require = createRequire(import.meta.url);
const BABYLON_CORE_VERSION = require('@babylonjs/core/package.json').version;
const BABYLON_LOADERS_VERSION = require('@babylonjs/loaders/package.json').version;

process.on('uncaughtException', (e) => { console.error(`error: ${e.message}`); process.exit(1); });

// ------------------------------------------------------------------------------------------ args
function usage(msg) {
  if (msg) console.error(`error: ${msg}`);
  console.error('usage: node pointer_oracle.mjs <file.gltf|glb> --anim <index> [--times auto|t0,t1,...] [--digits N] [--out F] [--selftest [--patch-babylon]]');
  process.exit(2);
}
const argv = process.argv.slice(2);
const opt = { file: null, anim: null, times: 'auto', digits: null, out: null, selftest: false, patch: false };
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === '--anim') opt.anim = argv[++i];
  else if (a === '--times') opt.times = argv[++i];
  else if (a === '--digits') opt.digits = parseInt(argv[++i], 10);
  else if (a === '--out') opt.out = argv[++i];
  else if (a === '--selftest') opt.selftest = true;
  else if (a === '--patch-babylon') opt.patch = true;
  else if (a.startsWith('--')) usage(`unknown option ${a}`);
  else if (!opt.file) opt.file = a;
  else usage(`unexpected argument ${a}`);
}
if (!opt.file) usage('no file');
if (opt.patch && !opt.selftest) usage('--patch-babylon is for --selftest only');
if (opt.anim == null || !/^\d+$/.test(opt.anim)) usage('--anim <index> is required');
opt.anim = parseInt(opt.anim, 10);

// ------------------------------------------------------------------------------ glTF reading (own)
const fileBytes = fs.readFileSync(opt.file);
const isGlb = fileBytes.readUInt32LE(0) === 0x46546c67; // "glTF"
let gltf, glbBin = null;
if (isGlb) {
  let off = 12;
  while (off < fileBytes.length) {
    const len = fileBytes.readUInt32LE(off), type = fileBytes.readUInt32LE(off + 4);
    const chunk = fileBytes.subarray(off + 8, off + 8 + len);
    if (type === 0x4e4f534a) gltf = JSON.parse(chunk.toString('utf8'));
    else if (type === 0x004e4942 && !glbBin) glbBin = chunk;
    off += 8 + len;
  }
} else {
  gltf = JSON.parse(fileBytes.toString('utf8'));
}
const buffers = (gltf.buffers || []).map((b, i) => {
  if (b.uri === undefined) {
    if (i !== 0 || !glbBin) throw new Error(`buffer ${i} has no uri`);
    return glbBin;
  }
  if (b.uri.startsWith('data:')) return Buffer.from(b.uri.slice(b.uri.indexOf(',') + 1), 'base64');
  return fs.readFileSync(path.resolve(path.dirname(opt.file), decodeURIComponent(b.uri)));
});
const NCOMP = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4, MAT2: 4, MAT3: 9, MAT4: 16 };
const CT = {
  5120: [1, (v, o) => v.getInt8(o), (x) => Math.max(x / 127, -1)],
  5121: [1, (v, o) => v.getUint8(o), (x) => x / 255],
  5122: [2, (v, o) => v.getInt16(o, true), (x) => Math.max(x / 32767, -1)],
  5123: [2, (v, o) => v.getUint16(o, true), (x) => x / 65535],
  5125: [4, (v, o) => v.getUint32(o, true), (x) => x / 4294967295],
  5126: [4, (v, o) => v.getFloat32(o, true), (x) => x],
};
// Returns a Float64Array of the accessor's values as glTF defines them (normalized ints dequantized
// with the spec's formulas, float32 values widened exactly).
function readAccessor(index) {
  const acc = gltf.accessors[index];
  const n = NCOMP[acc.type];
  const [size, get, norm] = CT[acc.componentType];
  const out = new Float64Array(acc.count * n);
  const conv = acc.normalized ? norm : (x) => x;
  if (acc.bufferView !== undefined) {
    const bv = gltf.bufferViews[acc.bufferView];
    const buf = buffers[bv.buffer];
    const view = new DataView(buf.buffer, buf.byteOffset + (bv.byteOffset || 0), bv.byteLength);
    const stride = bv.byteStride || size * n;
    const base = acc.byteOffset || 0;
    for (let i = 0; i < acc.count; i++) for (let c = 0; c < n; c++) out[i * n + c] = conv(get(view, base + i * stride + c * size));
  }
  if (acc.sparse) {
    const s = acc.sparse;
    const ibv = gltf.bufferViews[s.indices.bufferView], vbv = gltf.bufferViews[s.values.bufferView];
    const ib = buffers[ibv.buffer], vb = buffers[vbv.buffer];
    const iview = new DataView(ib.buffer, ib.byteOffset + (ibv.byteOffset || 0) + (s.indices.byteOffset || 0));
    const vview = new DataView(vb.buffer, vb.byteOffset + (vbv.byteOffset || 0) + (s.values.byteOffset || 0));
    const [isz, iget] = CT[s.indices.componentType];
    for (let k = 0; k < s.count; k++) {
      const idx = iget(iview, k * isz);
      for (let c = 0; c < n; c++) out[idx * n + c] = conv(get(vview, (k * n + c) * size));
    }
  }
  return out;
}

const animation = (gltf.animations || [])[opt.anim];
if (!animation) usage(`file has no animation ${opt.anim} (it has ${(gltf.animations || []).length})`);

// ------------------------------------------------------------------------------ pointer templates
const TEXSLOT = {
  'pbrMetallicRoughness/baseColorTexture': 'albedoTexture',
  'pbrMetallicRoughness/metallicRoughnessTexture': 'metallicTexture',
  emissiveTexture: 'emissiveTexture',
  normalTexture: 'bumpTexture',
  occlusionTexture: 'ambientTexture',
};
const c3 = (c) => [c.r, c.g, c.b];
const v3 = (v) => [v.x, v.y, v.z];
function bMaterial(m) {
  const data = gltf.materials?.[m]?._data;
  if (!data) return null;
  const first = Object.values(data)[0];
  return first ? first.babylonMaterial : null;
}
const bNode = (n) => gltf.nodes?.[n]?._babylonTransformNode || null;
const bLight = (l) => gltf.extensions?.KHR_lights_punctual?.lights?.[l]?._babylonLight || null;
const bCamera = (c) => gltf.cameras?.[c]?._babylonCamera || null;

// Each template: regex, expected component count (function of the match), flags, and `babylon`:
// a function that reads the current value from Babylon's objects and inverts Babylon's conversion
// back to glTF semantics (null = Babylon has no such object).
const TEMPLATES = [
  { re: /^\/nodes\/(\d+)\/translation$/, dims: () => 3, babylon: (m) => { const t = bNode(+m[1]); return t && v3(t.position); } },
  {
    re: /^\/nodes\/(\d+)\/rotation$/, dims: () => 4, quat: true,
    babylon: (m) => { const t = bNode(+m[1]); const q = t && t.rotationQuaternion; return q && [q.x, q.y, q.z, q.w]; },
  },
  { re: /^\/nodes\/(\d+)\/scale$/, dims: () => 3, babylon: (m) => { const t = bNode(+m[1]); return t && v3(t.scaling); } },
  {
    re: /^\/nodes\/(\d+)\/weights$/,
    dims: (m) => {
      const node = gltf.nodes[+m[1]];
      const mesh = gltf.meshes?.[node?.mesh];
      return mesh ? (mesh.primitives[0].targets || []).length : -1;
    },
    babylon: (m) => {
      const node = gltf.nodes[+m[1]];
      const mesh = node._primitiveBabylonMeshes?.[0];
      const mtm = mesh?.morphTargetManager;
      if (!mtm) return null;
      const out = [];
      for (let i = 0; i < mtm.numTargets; i++) out.push(mtm.getTarget(i).influence);
      return out;
    },
  },
  {
    re: /^\/nodes\/(\d+)\/extensions\/KHR_node_visibility\/visible$/, dims: () => 1, bool: true,
    babylon: (m) => {
      const node = gltf.nodes[+m[1]];
      const mesh = node._primitiveBabylonMeshes?.[0];
      const holder = mesh || node._babylonTransformNode;
      return holder ? [holder.isVisible ? 1 : 0] : null;
    },
  },
  {
    re: /^\/materials\/(\d+)\/pbrMetallicRoughness\/baseColorFactor$/, dims: () => 4,
    babylon: (m) => { const b = bMaterial(+m[1]); return b && [...c3(b.albedoColor), b.alpha]; },
  },
  {
    // Babylon 9.35/9.28 maps this pointer to `roughness` (KHR_animation_pointer.data: the second
    // SetInterpolationForKey for metallicFactor overwrites the first): spec fallback.
    re: /^\/materials\/(\d+)\/pbrMetallicRoughness\/metallicFactor$/, dims: () => 1, babylonWrong: 'mapped to roughness by Babylon',
    babylon: (m) => { const b = bMaterial(+m[1]); return b && [b.metallic]; },
  },
  {
    // no interpolation registered in Babylon: the channel is skipped ("Invalid pointer"): spec fallback
    re: /^\/materials\/(\d+)\/pbrMetallicRoughness\/roughnessFactor$/, dims: () => 1, babylonWrong: 'skipped by Babylon',
    babylon: (m) => { const b = bMaterial(+m[1]); return b && [b.roughness]; },
  },
  { re: /^\/materials\/(\d+)\/emissiveFactor$/, dims: () => 3, babylon: (m) => { const b = bMaterial(+m[1]); return b && c3(b.emissiveColor); } },
  {
    // no interpolation registered in Babylon: the channel is skipped: spec fallback
    re: /^\/materials\/(\d+)\/alphaCutoff$/, dims: () => 1, babylonWrong: 'skipped by Babylon',
    babylon: (m) => { const b = bMaterial(+m[1]); return b && [b.alphaCutOff]; },
  },
  {
    re: /^\/materials\/(\d+)\/normalTexture\/scale$/, dims: () => 1,
    babylon: (m) => { const b = bMaterial(+m[1]); return b && b.bumpTexture && [b.bumpTexture.level]; },
  },
  {
    re: /^\/materials\/(\d+)\/occlusionTexture\/strength$/, dims: () => 1,
    babylon: (m) => { const b = bMaterial(+m[1]); return b && [b.ambientTextureStrength]; },
  },
  {
    re: /^\/materials\/(\d+)\/extensions\/KHR_materials_emissive_strength\/emissiveStrength$/, dims: () => 1,
    babylon: (m) => { const b = bMaterial(+m[1]); return b && [b.emissiveIntensity]; },
  },
  {
    // Babylon: uOffset/vOffset = offset (glTF textures are loaded with invertY = false, so no v flip),
    // wAng = -rotation (rotation centre 0,0), uScale/vScale = scale.
    re: /^\/materials\/(\d+)\/(pbrMetallicRoughness\/baseColorTexture|pbrMetallicRoughness\/metallicRoughnessTexture|emissiveTexture|normalTexture|occlusionTexture)\/extensions\/KHR_texture_transform\/(offset|rotation|scale)$/,
    dims: (m) => (m[3] === 'rotation' ? 1 : 2),
    babylon: (m) => {
      const b = bMaterial(+m[1]);
      const t = b && b[TEXSLOT[m[2]]];
      if (!t) return null;
      if (m[3] === 'offset') return [t.uOffset, t.vOffset];
      if (m[3] === 'scale') return [t.uScale, t.vScale];
      return [-t.wAng];
    },
  },
  {
    // Babylon: diffuse = color, intensity = intensity (falloffType GLTF, no unit conversion),
    // range = range, SpotLight.angle = 2 * outerConeAngle, innerAngle = 2 * innerConeAngle.
    re: /^\/extensions\/KHR_lights_punctual\/lights\/(\d+)\/(color|intensity|range|spot\/innerConeAngle|spot\/outerConeAngle)$/,
    dims: (m) => (m[2] === 'color' ? 3 : 1),
    babylon: (m) => {
      const l = bLight(+m[1]);
      if (!l) return null;
      switch (m[2]) {
        case 'color': return c3(l.diffuse);
        case 'intensity': return [l.intensity];
        case 'range': return [l.range];
        case 'spot/innerConeAngle': return [l.innerAngle / 2];
        default: return [l.angle / 2];
      }
    },
  },
  {
    re: /^\/cameras\/(\d+)\/perspective\/(yfov|znear|zfar)$/, dims: () => 1,
    babylon: (m) => { const c = bCamera(+m[1]); return c && [m[2] === 'yfov' ? c.fov : m[2] === 'znear' ? c.minZ : c.maxZ]; },
  },
];

// RFC 6901 resolution in the glTF JSON, for pointers no template knows.
function resolveJsonPointer(p) {
  let cur = gltf;
  for (const raw of p.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object' || !(k in cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

// ------------------------------------------------------------------------------ channels (glTF side)
const channels = [];
for (const [ci, ch] of animation.channels.entries()) {
  const pointer = ch.target?.extensions?.KHR_animation_pointer?.pointer;
  if (ch.target?.path !== 'pointer' || typeof pointer !== 'string') {
    throw new Error(`animation ${opt.anim} channel ${ci}: not a KHR_animation_pointer channel (path ${ch.target?.path})`);
  }
  if (channels.some((c) => c.pointer === pointer)) throw new Error(`pointer ${pointer} targeted twice in animation ${opt.anim}`);
  const sampler = animation.samplers[ch.sampler];
  const interp = sampler.interpolation || 'LINEAR';
  const times = readAccessor(sampler.input);
  const values = readAccessor(sampler.output);
  const outAcc = gltf.accessors[sampler.output];
  // KHR_animation_pointer: the pointer must name a property that is present, or has a default and
  // whose enclosing object is present: so the enclosing object must resolve.
  const parent = resolveJsonPointer(pointer.slice(0, pointer.lastIndexOf('/')));
  if (parent === null || typeof parent !== 'object') throw new Error(`${pointer}: enclosing object does not exist in the glTF`);
  let tpl = null, match = null;
  for (const t of TEMPLATES) { const m = pointer.match(t.re); if (m) { tpl = t; match = m; break; } }
  let n;
  if (tpl) {
    n = tpl.dims(match);
    if (n < 0) throw new Error(`${pointer}: target does not exist`);
  } else {
    if (resolveJsonPointer(pointer) === undefined) throw new Error(`${pointer}: does not resolve in the glTF JSON`);
    n = NCOMP[outAcc.type];
  }
  const perKey = interp === 'CUBICSPLINE' ? 3 : 1;
  const isWeights = tpl && /\/weights$/.test(pointer);
  const expectType = isWeights ? 'SCALAR' : { 1: 'SCALAR', 2: 'VEC2', 3: 'VEC3', 4: 'VEC4' }[n];
  if (outAcc.type !== expectType) throw new Error(`${pointer}: output accessor type ${outAcc.type}, expected ${expectType}`);
  if (values.length !== times.length * perKey * n) throw new Error(`${pointer}: output has ${values.length} values for ${times.length} keys x ${perKey} x ${n}`);
  if (tpl?.bool) {
    if (outAcc.componentType !== 5121 || outAcc.normalized) throw new Error(`${pointer}: bool output must be non-normalized UNSIGNED_BYTE`);
  }
  channels.push({ index: ci, pointer, interp, times, values, n, tpl, match, quat: !!tpl?.quat, bool: !!tpl?.bool });
}
const D = Math.max(...channels.map((c) => c.times[c.times.length - 1]));

// ------------------------------------------------------------------------------ spec sampler
function keyValue(ch, k, part = 1) { // part: 0 in-tangent, 1 value, 2 out-tangent (CUBICSPLINE)
  const base = ch.interp === 'CUBICSPLINE' ? (k * 3 + part) * ch.n : k * ch.n;
  return Array.from(ch.values.subarray(base, base + ch.n));
}
function normalize(q) { const l = Math.hypot(...q); return q.map((c) => c / l); }
function slerp(a, b, u) { // glTF 2.0 spec, appendix "Interpolation": shortest path
  let d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3];
  const s = d < 0 ? -1 : 1;
  d = Math.abs(d);
  if (d > 1 - 1e-9) return a.map((c, i) => (1 - u) * c + s * u * b[i]);
  const th = Math.acos(d);
  const wa = Math.sin(th * (1 - u)) / Math.sin(th), wb = (s * Math.sin(th * u)) / Math.sin(th);
  return a.map((c, i) => wa * c + wb * b[i]);
}
function specSample(ch, t) {
  const T = ch.times, K = T.length;
  let v;
  if (t <= T[0]) v = keyValue(ch, 0);
  else if (t >= T[K - 1]) v = keyValue(ch, K - 1);
  else {
    let i = 0;
    while (!(t >= T[i] && t < T[i + 1])) i++;
    const td = T[i + 1] - T[i], u = (t - T[i]) / td;
    if (ch.interp === 'STEP') v = keyValue(ch, i);
    else if (ch.interp === 'LINEAR') {
      const a = keyValue(ch, i), b = keyValue(ch, i + 1);
      v = ch.quat ? slerp(a, b, u) : a.map((x, j) => x + (b[j] - x) * u);
    } else {
      const p0 = keyValue(ch, i), m0 = keyValue(ch, i, 2), p1 = keyValue(ch, i + 1), m1 = keyValue(ch, i + 1, 0);
      const u2 = u * u, u3 = u2 * u;
      const h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2;
      v = p0.map((x, j) => h00 * x + h10 * td * m0[j] + h01 * p1[j] + h11 * td * m1[j]);
      if (ch.quat) v = normalize(v);
    }
  }
  if (ch.bool) v = v.map((x) => (x !== 0 ? 1 : 0));
  return v;
}

// ------------------------------------------------------------------------------ Babylon
// --patch-babylon (self-test only): give Babylon correct mappings for the targets it gets wrong, so
// that its own interpolator can cross-check this script's spec fallback for them.
if (opt.patch) {
  class MaterialProp extends AnimationPropertyInfo {
    buildAnimations(target, name, fps, keys) {
      return Object.values(target._data).map((d) => ({ babylonAnimatable: d.babylonMaterial, babylonAnimation: this._buildAnimation(name, fps, keys) }));
    }
  }
  const get = (_t, src, off, scale) => src[off] * scale;
  const F = BABYLON.Animation.ANIMATIONTYPE_FLOAT;
  SetInterpolationForKey('/materials/{}/pbrMetallicRoughness/metallicFactor', [new MaterialProp(F, 'metallic', get, () => 1)]);
  SetInterpolationForKey('/materials/{}/pbrMetallicRoughness/roughnessFactor', [new MaterialProp(F, 'roughness', get, () => 1)]);
  SetInterpolationForKey('/materials/{}/alphaCutoff', [new MaterialProp(F, 'alphaCutOff', get, () => 1)]);
}
const baseLog = BABYLON.Logger.Log, baseWarn = BABYLON.Logger.Warn;
const babylonWarnings = [];
BABYLON.Logger.Log = () => {};
BABYLON.Logger.Warn = (m) => babylonWarnings.push(String(m));
const engine = new BABYLON.NullEngine();
const scene = new BABYLON.Scene(engine);
let loaderGltf = null;
BABYLON.SceneLoader.OnPluginActivatedObservable.addOnce((plugin) => {
  plugin.animationStartMode = 0; // GLTFLoaderAnimationStartMode.NONE
  // KHR_interactivity graphs (WhackAMole) would start animations on their own; keep them out.
  plugin.extensionOptions = { ...(plugin.extensionOptions || {}), KHR_interactivity: { enabled: false } };
  plugin.onExtensionLoadedObservable.add((ext) => {
    if (!loaderGltf && ext._loader && ext._loader.gltf) loaderGltf = ext._loader.gltf;
  });
});
const source = isGlb ? new Uint8Array(fileBytes) : 'data:' + fileBytes.toString('utf8');
await BABYLON.ImportMeshAsync(source, scene, {
  pluginExtension: isGlb ? '.glb' : '.gltf',
  rootUrl: path.dirname(path.resolve(opt.file)) + '/',
});
BABYLON.Logger.Log = baseLog; BABYLON.Logger.Warn = baseWarn;
if (!loaderGltf) throw new Error('could not capture the Babylon glTF loader state');
// The loader's gltf object carries the Babylon objects it made (_babylonTransformNode, _data, ...);
// our own parse carries the raw data. Same JSON, so graft the Babylon side onto ours by index.
for (const key of ['nodes', 'materials', 'cameras', 'animations']) {
  (gltf[key] || []).forEach((o, i) => {
    const src = loaderGltf[key]?.[i];
    if (src) for (const k of Object.keys(src)) if (k.startsWith('_')) o[k] = src[k];
  });
}
(gltf.extensions?.KHR_lights_punctual?.lights || []).forEach((l, i) => {
  const src = loaderGltf.extensions?.KHR_lights_punctual?.lights?.[i];
  if (src?._babylonLight) l._babylonLight = src._babylonLight;
});

const group = gltf.animations[opt.anim]._babylonAnimationGroup;
const groupAlive = group && group.targetedAnimations.length > 0 && scene.animationGroups.includes(group);
const fps = groupAlive ? group.targetedAnimations[0].animation.framePerSecond : 60;
// which channels did Babylon turn into animations? (names: <anim>_channel<c>_<k>[_<target>])
const babylonChannels = new Set();
if (groupAlive) {
  for (const ta of group.targetedAnimations) {
    const m = ta.animation.name.match(/_channel(\d+)_\d+(?:_\d+)?$/);
    if (m) babylonChannels.add(+m[1]);
  }
}
for (const ch of channels) {
  let why = null;
  if (!ch.tpl) why = 'no Babylon read-back for this pointer';
  else if (ch.tpl.babylonWrong && !opt.patch) why = ch.tpl.babylonWrong;
  else if (!babylonChannels.has(ch.index)) why = 'channel not played by Babylon';
  else if (ch.interp === 'CUBICSPLINE' && (ch.times[0] > 0 || ch.times[ch.times.length - 1] < D)) {
    why = "CUBICSPLINE track shorter than the clip (Babylon's AnimationGroup.normalize pads it with copies of its end keys, tangents included)";
  }
  ch.source = why ? 'spec' : 'babylon';
  ch.why = why;
}
if (groupAlive) {
  group.start(false, 1.0, 0, D * fps);
  group.pause();
}
function babylonSample(clipTime) {
  if (!groupAlive) return;
  group.reset(); // back to the rest values, so every time is sampled on its own
  group.goToFrame(clipTime * fps);
}
function readBabylon(ch) {
  const v = ch.tpl.babylon(ch.match);
  if (!v) throw new Error(`${ch.pointer}: Babylon object missing`);
  return v.map(Number);
}

// ------------------------------------------------------------------------------ times, rounding
let times;
if (opt.times === 'auto') {
  times = [];
  for (let k = 0; k <= 16; k++) times.push((D * k) / 16);
  times.push(D + 0.5);
} else {
  times = opt.times.split(',').map((s) => { const x = Number(s); if (!Number.isFinite(x)) usage(`bad time ${s}`); return x; });
}
const round = (x) => {
  if (opt.digits == null) return x;
  const r = Number(x.toPrecision(opt.digits));
  return Object.is(r, -0) ? 0 : r;
};
const clamp = (t) => Math.min(Math.max(t, 0), D);
function diff(a, b, quat) {
  let d = Math.max(...a.map((x, i) => Math.abs(x - b[i])));
  if (quat) d = Math.min(d, Math.max(...a.map((x, i) => Math.abs(x + b[i]))));
  return d;
}

// ------------------------------------------------------------------------------ self-test mode
if (opt.selftest) {
  // For every channel: at each key time Babylon's value must equal the raw key (conversions
  // inverted right); quaternions unit length; STEP constant between keys. Channels Babylon
  // does not play are reported, not tested.
  let failures = 0;
  const say = (s) => console.log(s);
  say(`== ${opt.file} anim ${opt.anim} (D=${D})`);
  for (const ch of channels) {
    const patched = opt.patch && ch.tpl?.babylonWrong;
    if (!ch.tpl) { say(`   n/a  ${ch.pointer} [${ch.interp}]: spec only (${ch.why})`); continue; }
    let maxKey = 0, maxQuatErr = 0, stepBad = 0, maxSpec = 0;
    for (let k = 0; k < ch.times.length; k++) {
      const t = ch.times[k];
      babylonSample(clamp(t));
      const bv = readBabylon(ch);
      const kv = specSample(ch, t); // at a key time: the key value (bool-converted)
      maxKey = Math.max(maxKey, diff(bv, kv, ch.quat));
      if (ch.quat) maxQuatErr = Math.max(maxQuatErr, Math.abs(Math.hypot(...bv) - 1));
      if (ch.interp === 'STEP' && k + 1 < ch.times.length) {
        for (const f of [0.25, 0.5, 0.999]) {
          const tm = t + (ch.times[k + 1] - t) * f;
          babylonSample(clamp(tm));
          if (diff(readBabylon(ch), kv, ch.quat) > 1e-9) stepBad++;
        }
      }
    }
    for (let j = 0; j <= 64; j++) { // dense comparison with the spec formulas
      const t = (D * j) / 64;
      babylonSample(t);
      if (ch.quat) maxQuatErr = Math.max(maxQuatErr, Math.abs(Math.hypot(...readBabylon(ch)) - 1));
      maxSpec = Math.max(maxSpec, diff(readBabylon(ch), specSample(ch, t), ch.quat));
    }
    const ok = maxKey < 1e-6 && maxQuatErr < 1e-6 && stepBad === 0 && maxSpec < 1e-6;
    if (!ok && ch.source === 'babylon') failures++;
    const tag = ch.source !== 'babylon' ? `n/a  (spec fallback: ${ch.why}; unpatched Babylon gives:)\n       ` : patched ? (ok ? 'ok* ' : 'FAIL*') : ok ? 'ok  ' : 'FAIL';
    say(`   ${tag} ${ch.pointer} [${ch.interp}] babylon-vs-key ${maxKey.toExponential(2)}` +
      `${ch.quat ? ` |q|-1 ${maxQuatErr.toExponential(2)}` : ''}${ch.interp === 'STEP' ? ` step-violations ${stepBad}` : ''}` +
      ` babylon-vs-spec(65 times) ${maxSpec.toExponential(2)}`);
  }
  if (opt.patch && channels.some((c) => c.tpl?.babylonWrong)) say('   (* = Babylon with --patch-babylon mappings, cross-checking the spec fallback)');
  if (babylonWarnings.length) say(`   Babylon warnings: ${babylonWarnings.join(' | ')}`);
  process.exit(failures ? 1 : 0);
}

// ------------------------------------------------------------------------------ sample + write
const frames = [];
let maxDiff = 0;
for (const t of times) {
  const ct = clamp(t);
  babylonSample(ct);
  const pointers = [];
  for (const ch of channels) {
    const spec = specSample(ch, ct);
    let value;
    if (ch.source === 'babylon') {
      value = readBabylon(ch);
      const d = diff(value, spec, ch.quat);
      maxDiff = Math.max(maxDiff, d);
      if (d > 1e-5) console.error(`warning: t=${t} ${ch.pointer}: Babylon ${JSON.stringify(value)} vs spec ${JSON.stringify(spec)}`);
    } else value = spec;
    pointers.push({ pointer: ch.pointer, value: value.map(round), source: ch.source });
  }
  frames.push({ time: round(t), clip_time: round(ct), pointers });
}
const result = {
  format: 'gltf-pointer-oracle/1',
  oracle: `babylon.js ${BABYLON_CORE_VERSION} (NullEngine)`,
  babylon_loaders: BABYLON_LOADERS_VERSION,
  file: opt.file,
  animation: { index: opt.anim, name: animation.name ?? null, duration: round(D) },
  time_mode: opt.times === 'auto' ? 'auto' : 'list',
  spec_fallback: channels.filter((c) => c.source === 'spec').map((c) => ({ pointer: c.pointer, reason: c.why })),
  max_abs_diff_babylon_vs_spec: Number(maxDiff.toPrecision(3)),
  frames,
};
const text = JSON.stringify(result, null, 1) + '\n';
if (opt.out) fs.writeFileSync(opt.out, text);
else process.stdout.write(text);
console.error(`${opt.file} anim ${opt.anim}: ${channels.length} pointers (${channels.filter((c) => c.source === 'spec').length} spec), ` +
  `${frames.length} times, D=${D}, max |babylon - spec| = ${maxDiff.toExponential(2)}`);
for (const w of babylonWarnings) console.error(`  babylon: ${w}`);
engine.dispose();
