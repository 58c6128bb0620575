#!/usr/bin/env node
// glTF render reference: three.js (WebGLRenderer, GLTFLoader) in headless Chromium on SwiftShader.
// See README.md for the conventions.
//
//   node render.mjs FILE --out OUT.png [--size WxH] [--camera eye=X,Y,Z:target=X,Y,Z:yfov=DEG]
//        [--anim INDEX --time T] [--light dir=X,Y,Z:color=R,G,B:intensity=I]
//        [--ambient R,G,B] [--background R,G,B] [--lights none|file] [--material-variant NAME]
//   node render.mjs --manifest manifest.json
//
// Writes OUT.png and, beside it, OUT.json with every setting used.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '../../..');
const SHARED_MODELS = path.resolve(REPO, '../shared/models');
const THREE_DIR = path.resolve(HERE, 'node_modules/three');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const CHROMIUM_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--hide-scrollbars', '--mute-audio', '--no-default-browser-check',
];

const DEFAULTS = {
  size: '384x384',
  yfov: 40,
  light: 'dir=0.4,1,0.6:color=1,1,1:intensity=3',
  ambient: '0.6,0.6,0.6',
  background: '0.5,0.7,1.0',
};

// ---------- option parsing (the same strings on the command line and in the manifest) ----------
function nums(s, n, what) {
  const a = String(s).split(',').map((x) => Number(x.trim()));
  if (a.length !== n || a.some((x) => !Number.isFinite(x))) throw new Error(`${what}: expected ${n} numbers, got "${s}"`);
  return a;
}
function parseSize(s) {
  const m = /^(\d+)x(\d+)$/.exec(String(s));
  if (!m || +m[1] < 1 || +m[2] < 1) throw new Error(`--size: expected WxH, got "${s}"`);
  return [+m[1], +m[2]];
}
function parseKV(s, what) {
  const out = {};
  for (const part of String(s).split(':')) {
    const i = part.indexOf('=');
    if (i < 0) throw new Error(`${what}: expected key=value parts separated by ':', got "${s}"`);
    out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}
function parseCamera(s) {
  const kv = parseKV(s, '--camera');
  for (const k of Object.keys(kv)) if (!['eye', 'target', 'yfov'].includes(k)) throw new Error(`--camera: unknown key ${k}`);
  const yfov = kv.yfov !== undefined ? Number(kv.yfov) : DEFAULTS.yfov;
  if (!(yfov > 0 && yfov < 180)) throw new Error(`--camera: bad yfov ${kv.yfov}`);
  if ((kv.eye === undefined) !== (kv.target === undefined)) throw new Error('--camera: give both eye and target (or only yfov)');
  if (kv.eye === undefined) return { yfov }; // auto-framing with this fov
  return { eye: nums(kv.eye, 3, 'camera eye'), target: nums(kv.target, 3, 'camera target'), yfov };
}
function parseLight(s) {
  const kv = parseKV(s, '--light');
  const d = parseKV(DEFAULTS.light, 'default light');
  for (const k of Object.keys(kv)) if (!['dir', 'color', 'intensity'].includes(k)) throw new Error(`--light: unknown key ${k}`);
  const dir = nums(kv.dir ?? d.dir, 3, 'light dir');
  if (Math.hypot(...dir) === 0) throw new Error('--light: dir must not be zero');
  const intensity = Number(kv.intensity ?? d.intensity);
  if (!Number.isFinite(intensity)) throw new Error('--light: bad intensity');
  return { dir, color: nums(kv.color ?? d.color, 3, 'light color'), intensity };
}

// Resolve all options of one render into the object the page gets.
function resolveOptions(o) {
  const [width, height] = parseSize(o.size ?? DEFAULTS.size);
  const camera = o.camera !== undefined && o.camera !== null ? parseCamera(o.camera) : null;
  let anim = null;
  if (o.anim !== undefined && o.anim !== null) {
    const index = Number(o.anim);
    if (!Number.isInteger(index) || index < 0) throw new Error(`--anim: bad index ${o.anim}`);
    const time = o.time !== undefined ? Number(o.time) : 0;
    if (!Number.isFinite(time)) throw new Error(`--time: bad time ${o.time}`);
    anim = { index, time };
  } else if (o.time !== undefined) throw new Error('--time needs --anim');
  return {
    width, height,
    yfov: camera ? camera.yfov : DEFAULTS.yfov,
    camera: camera && camera.eye ? camera : null,
    anim,
    light: parseLight(o.light ?? DEFAULTS.light),
    ambient: nums(o.ambient ?? DEFAULTS.ambient, 3, '--ambient'),
    background: nums(o.background ?? DEFAULTS.background, 3, '--background'),
    lights: parseLights(o.lights ?? 'none'),
    materialVariant: parseMaterialVariant(o['material-variant']),
  };
}
// The KHR_materials_variants variant to draw (by name), or null: the file's own materials.
function parseMaterialVariant(s) {
  if (s === undefined || s === null) return null;
  if (!/^[A-Za-z0-9_.-]+$/.test(String(s))) throw new Error(`--material-variant: expected a name of letters, digits, _ . -, got "${s}"`);
  return String(s);
}
// The file's own KHR_lights_punctual lights: `none` (removed, the default) or `file` (kept).
function parseLights(s) {
  if (s !== 'none' && s !== 'file') throw new Error(`--lights: expected none or file, got "${s}"`);
  return s;
}

const g9 = (x) => { const y = Number(Number(x).toPrecision(9)); return Object.is(y, -0) ? 0 : y; };
const s9 = (a) => a.map((x) => String(g9(x))).join(',');
const round9 = (v) => (typeof v === 'number' ? g9(v) : Array.isArray(v) ? v.map(round9)
  : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, round9(x)])) : v);

// JSON with arrays of numbers/strings on one line.
function compactJson(v, ind = '') {
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) return JSON.stringify(v).replace(/,/g, ', ');
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const ind2 = ind + '  ';
  if (Array.isArray(v)) return v.length ? `[\n${v.map((x) => ind2 + compactJson(x, ind2)).join(',\n')}\n${ind}]` : '[]';
  const ent = Object.entries(v).filter(([, x]) => x !== undefined);
  return ent.length ? `{\n${ent.map(([k, x]) => `${ind2}${JSON.stringify(k)}: ${compactJson(x, ind2)}`).join(',\n')}\n${ind}}` : '{}';
}

// ---------- file -> URL under one of the served roots ----------
function within(root, p) {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel)) ? rel : null;
}
function fileToUrl(abs) {
  let rel;
  if ((rel = within(SHARED_MODELS, abs)) !== null) return '/shared/' + rel.split(path.sep).map(encodeURIComponent).join('/');
  if ((rel = within(REPO, abs)) !== null) return '/repo/' + rel.split(path.sep).map(encodeURIComponent).join('/');
  throw new Error(`${abs} is neither under the repository (${REPO}) nor under ${SHARED_MODELS}`);
}

// ---------- tiny read-only static server on 127.0.0.1 ----------
const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.wasm': 'application/wasm', '.gltf': 'model/gltf+json',
  '.glb': 'model/gltf-binary', '.bin': 'application/octet-stream', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.webp': 'image/webp', '.ktx2': 'image/ktx2',
  '.avif': 'image/avif',
};
const SENT = new Set(); // paths whose whole body the server has sent
function startServer() {
  const roots = { three: THREE_DIR, repo: REPO, shared: SHARED_MODELS };
  const realRoots = Object.fromEntries(Object.entries(roots).map(([k, r]) => [k, fs.existsSync(r) ? fs.realpathSync(r) : r]));
  const server = http.createServer((req, res) => {
    const fail = (code) => { res.writeHead(code, { 'Content-Type': 'text/plain' }); res.end(String(code)); };
    if (req.method !== 'GET' && req.method !== 'HEAD') return fail(405);
    let pathname;
    try { pathname = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname); } catch { return fail(400); }
    if (pathname.includes('\0')) return fail(400);
    const m = /^\/(three|repo|shared)\/(.*)$/.exec(pathname);
    if (!m) return pathname === '/favicon.ico' ? (res.writeHead(204), res.end()) : fail(404);
    const root = realRoots[m[1]];
    const file = path.resolve(root, '.' + path.posix.normalize('/' + m[2]));
    let real;
    try { real = fs.realpathSync(file); } catch { return fail(404); }
    if (within(root, real) === null) return fail(403);
    let st;
    try { st = fs.statSync(real); } catch { return fail(404); }
    if (!st.isFile()) return fail(404);
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(real).toLowerCase()] || 'application/octet-stream',
      'Content-Length': st.size, 'Cache-Control': 'no-store',
    });
    if (req.method === 'HEAD') return res.end();
    res.on('finish', () => SENT.add(pathname));
    fs.createReadStream(real).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

// ---------- PNG writer (8-bit RGB, or RGBA if any alpha is not 255; adaptive filters, zlib 9) ----------
const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; t[n] = c >>> 0; }
  return t;
})();
function crc32(buf) { let c = 0xffffffff; for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8); return (c ^ 0xffffffff) >>> 0; }
function chunk(type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
function encodePng(rgba, W, H) {
  let opaque = true;
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) { opaque = false; break; }
  const bpp = opaque ? 3 : 4, stride = W * bpp;
  const rows = Buffer.alloc((stride + 1) * H);
  let prev = Buffer.alloc(stride);
  const cur = Buffer.alloc(stride), cand = Buffer.alloc(stride);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) for (let k = 0; k < bpp; k++) cur[x * bpp + k] = rgba[(y * W + x) * 4 + k];
    let best = -1, bestSum = Infinity, bestBuf = null;
    for (let f = 0; f < 5; f++) {
      let sum = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
        let p;
        if (f === 0) p = 0; else if (f === 1) p = a; else if (f === 2) p = b; else if (f === 3) p = (a + b) >> 1;
        else { const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c); p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
        const v = (cur[i] - p) & 0xff;
        cand[i] = v; sum += v < 128 ? v : 256 - v;
      }
      if (sum < bestSum) { bestSum = sum; best = f; bestBuf = Buffer.from(cand); }
    }
    rows[y * (stride + 1)] = best;
    bestBuf.copy(rows, y * (stride + 1) + 1);
    prev = Buffer.from(cur);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0); ihdr.writeUInt32BE(H, 4);
  ihdr[8] = 8; ihdr[9] = opaque ? 2 : 6; ihdr[10] = 0; ihdr[11] = 0; ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('sRGB', Buffer.from([0])), // perceptual; pixels are sRGB-encoded
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------- rendering ----------
async function launch() {
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gltf-render-chromium-'));
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    ignoreDefaultArgs: true,
    args: [...CHROMIUM_FLAGS, `--user-data-dir=${userDataDir}`, 'about:blank'],
    pipe: true,
    headless: true,
    protocolTimeout: 600000,
  });
  return { browser, userDataDir, version: await browser.version() };
}

async function renderOne(session, base, job) {
  const { browser } = session;
  const opts = resolveOptions(job.options || {});
  const abs = path.resolve(job.base, job.file);
  if (!fs.existsSync(abs)) throw new Error(`no such file: ${abs}`);
  const url = fileToUrl(abs);
  const page = await browser.newPage();
  const consoleLines = [];
  page.on('console', (m) => {
    if (!['warning', 'error', 'warn'].includes(m.type())) return;
    const text = m.text();
    if (/GPU stall due to ReadPixels/.test(text)) return; // driver performance note about our own readback
    consoleLines.push(`${m.type()}: ${text}`);
  });
  page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
  const failedRequests = [];
  page.on('requestfailed', (r) => failedRequests.push({ url: r.url(), error: r.failure() ? r.failure().errorText : '?' }));
  try {
    await page.goto(`${base}${fileToUrl(path.join(HERE, 'render.html'))}`, { waitUntil: 'load' });
    await page.waitForFunction('window.renderGltfReady === true', { timeout: 60000 });
    const res = await page.evaluate((o) => window.renderGltf(o), { ...opts, url: `${base}${url}`, checkCanvas: true });
    // Chromium sometimes reports a fetch that three.js read to the end as net::ERR_ABORTED; those whose
    // whole body the server sent are not failures (the render is byte-identical either way).
    for (const f of failedRequests) {
      if (f.error === 'net::ERR_ABORTED' && SENT.has(decodeURIComponent(new URL(f.url).pathname))) continue;
      consoleLines.push(`request failed: ${f.url} (${f.error})`);
    }
    const px = Buffer.from(res.rgba_base64, 'base64');
    const png = encodePng(px, res.width, res.height);
    fs.mkdirSync(path.dirname(job.out), { recursive: true });
    fs.writeFileSync(job.out, png);
    const repoRel = path.relative(REPO, abs).split(path.sep).join('/');
    const cam = res.camera;
    const cameraString = `eye=${s9(cam.eye)}:target=${s9(cam.target)}:yfov=${g9(cam.yfov_deg)}`;
    const L = opts.light;
    const lightString = `dir=${s9(L.dir)}:color=${s9(L.color)}:intensity=${g9(L.intensity)}`;
    const args = [`--size ${opts.width}x${opts.height}`, `--camera ${cameraString}`];
    if (opts.anim) args.push(`--anim ${opts.anim.index} --time ${g9(opts.anim.time)}`);
    args.push(`--light ${lightString}`, `--ambient ${s9(opts.ambient)}`, `--background ${s9(opts.background)}`);
    if (opts.lights === 'file') args.push('--lights file');
    if (opts.materialVariant) args.push(`--material-variant ${opts.materialVariant}`);
    const meta = {
      format: 'gltf-render-reference/1',
      file: repoRel,
      png: path.basename(job.out),
      size: [opts.width, opts.height],
      camera: cameraString,
      camera_mode: opts.camera ? 'given' : 'auto',
      args: args.join(' '),
      camera_detail: round9({ ...cam, light_direction_world: undefined }),
      box: round9(res.box),
      animation: res.animation ? round9(res.animation) : null,
      light: { dir: opts.light.dir, color: opts.light.color, intensity: opts.light.intensity, string: lightString,
        color_space: 'linear (working space)', direction_to_light_world: round9(cam.light_direction_world) },
      ambient: { color: opts.ambient, intensity: 1, color_space: 'linear (working space)' },
      background: { color: opts.background, color_space: 'sRGB' },
      output: { tone_mapping: 'NoToneMapping', output_color_space: 'srgb', antialias: 'MSAA (antialias: true)',
        samples: res.gl.samples, pixel_ratio: 1, png: png.length + ' bytes' },
      material_variant: opts.materialVariant ?? undefined,
      file_lights: res.file_lights,
      removed_file_lights: res.removed_file_lights,
      file_cameras_ignored: res.file_cameras,
      canvas_check: res.canvas_check,
      renderer: { three: `0.${res.three_revision}.0`, chromium: session.version, gl: res.gl },
      warnings: [...res.warnings, ...consoleLines],
    };
    if (meta.canvas_check && meta.canvas_check.todataurl_vs_readpixels_max_abs_diff !== 0) meta.warnings.push('canvas toDataURL differs from readPixels');
    fs.writeFileSync(job.out.replace(/\.png$/i, '') + '.json', compactJson(meta) + '\n');
    return meta;
  } finally {
    await page.close();
  }
}

function usage(msg) {
  if (msg) console.error(`error: ${msg}`);
  console.error('usage: node render.mjs FILE --out OUT.png [--size WxH] [--camera eye=X,Y,Z:target=X,Y,Z:yfov=DEG]\n' +
    '         [--anim INDEX --time T] [--light dir=X,Y,Z:color=R,G,B:intensity=I] [--ambient R,G,B] [--background R,G,B]\n' +
    '         [--lights none|file] [--material-variant NAME]\n' +
    '       node render.mjs --manifest manifest.json [--only NAME[,NAME...]]');
  process.exit(2);
}

function parseArgs(argv) {
  const a = { options: {} };
  const takes = ['out', 'size', 'camera', 'anim', 'time', 'light', 'ambient', 'background', 'lights', 'material-variant', 'manifest', 'only'];
  for (let i = 0; i < argv.length; i++) {
    const s = argv[i];
    if (s === '-h' || s === '--help') usage();
    if (s.startsWith('--')) {
      let k = s.slice(2), v;
      const eq = k.indexOf('=');
      if (eq >= 0) { v = k.slice(eq + 1); k = k.slice(0, eq); } else v = argv[++i];
      if (!takes.includes(k)) usage(`unknown option --${k}`);
      if (v === undefined) usage(`--${k} needs a value`);
      if (['out', 'manifest', 'only'].includes(k)) a[k] = v; else a.options[k] = v;
    } else if (a.file === undefined) a.file = s;
    else usage(`unexpected argument ${s}`);
  }
  return a;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const jobs = [];
  if (a.manifest) {
    if (a.file || a.out || Object.keys(a.options).length) usage('--manifest takes no FILE or render options');
    const mpath = path.resolve(a.manifest);
    const man = JSON.parse(fs.readFileSync(mpath, 'utf8'));
    const only = a.only ? new Set(a.only.split(',')) : null;
    const outDir = path.resolve(path.dirname(mpath), man.out_dir || '.');
    for (const e of man.renders) {
      if (!e.file || !e.name) throw new Error(`manifest entry without file/name: ${JSON.stringify(e)}`);
      if (only && !only.has(e.name)) continue;
      jobs.push({ file: e.file, base: REPO, out: path.join(outDir, e.name + '.png'), options: e.options || {} });
    }
    if (only && jobs.length !== only.size) throw new Error(`--only: some names are not in the manifest`);
  } else {
    if (!a.file) usage('no FILE');
    if (!a.out) usage('--out is required');
    jobs.push({ file: a.file, base: process.cwd(), out: path.resolve(a.out), options: a.options });
  }
  for (const j of jobs) resolveOptions(j.options); // fail early on bad options

  const server = await startServer();
  const base = `http://127.0.0.1:${server.address().port}`;
  const session = await launch();
  let failed = 0, glPrinted = false;
  try {
    for (const j of jobs) {
      const t0 = Date.now();
      try {
        const meta = await renderOne(session, base, j);
        if (!glPrinted) {
          console.log(`browser: ${session.version}; three ${meta.renderer.three}; GL: ${meta.renderer.gl.renderer} (${meta.renderer.gl.version}, samples=${meta.renderer.gl.samples})`);
          glPrinted = true;
        }
        const extra = meta.warnings.length ? `; ${meta.warnings.length} warning(s): ${meta.warnings.join(' | ')}` : '';
        console.log(`${path.relative(process.cwd(), j.out)}  ${meta.file}  camera ${meta.camera}  (${Date.now() - t0} ms)${extra}`);
      } catch (e) {
        failed++;
        console.error(`FAILED ${j.file}: ${e.message}`);
      }
    }
  } finally {
    await session.browser.close();
    fs.rmSync(session.userDataDir, { recursive: true, force: true });
    server.close();
  }
  if (failed) { console.error(`${failed} render(s) failed`); process.exit(1); }
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
