#!/usr/bin/env node
// Writes the KTX2 (KHR_texture_basisu) test models here, from the Fox (tests/models/Fox.glb),
// its 1024x1024 PNG texture encoded by Binomial's Basis Universal encoder (npm `ktx2-encoder`
// 0.6, its WebAssembly build) and put back by glTF-Transform 4.5 as glTF-Transform's `etc1s` and
// `uastc` commands write it (KHR_texture_basisu required, no PNG fallback):
//   Fox_etc1s.glb   ETC1S (BasisLZ), with mipmaps
//   Fox_uastc.glb   UASTC, Zstandard-supercompressed, with mipmaps
// and, for each, `<name>.rgba.png`: its largest level as three.js's KTX2Loader transcodes it to
// RGBA8 (Binomial's C++ transcoder, three's WebAssembly build), the reference for the game's.
// Run: node tests/models/ktx2/make.mjs (needs Node.js and the npm registry; installs its tools
// in a temporary folder, and reads three from tests/oracle/node_modules: `npm ci` there first).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tools = fs.mkdtempSync(path.join(os.tmpdir(), 'ktx2-tools-'));
execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', 'ktx2-encoder@0.6.0',
  '@gltf-transform/core@4.5.1', '@gltf-transform/extensions@4.5.1', 'pngjs@7.0.0'], { cwd: tools });
const load = (name) => import(pathToFileURL(createRequire(path.join(tools, 'x.js')).resolve(name)).href);
const { encodeToKTX2 } = await import(pathToFileURL(path.join(tools, 'node_modules', 'ktx2-encoder', 'dist', 'node', 'index.js')).href);
const { NodeIO } = await load('@gltf-transform/core');
const { KHRTextureBasisu } = await load('@gltf-transform/extensions');
const { PNG } = (await load('pngjs')).default;

// three's Basis transcoder, as KTX2Loader's worker runs it.
const three = path.join(here, '..', '..', 'oracle', 'node_modules', 'three', 'examples', 'jsm', 'libs', 'basis');
// A CommonJS script inside an ES-module package: evaluated as the CommonJS module it is.
const BASIS = (() => {
  const file = path.join(three, 'basis_transcoder.js');
  const module = { exports: {} };
  new Function('module', 'exports', 'require', '__filename', '__dirname', fs.readFileSync(file, 'utf8'))(
    module, module.exports, createRequire(file), file, three);
  return module.exports;
})();
const basis = await new Promise((resolve) => {
  const module = { wasmBinary: fs.readFileSync(path.join(three, 'basis_transcoder.wasm')) };
  module.onRuntimeInitialized = () => resolve(module);
  BASIS(module);
});
basis.initializeBasis();
const RGBA32 = 13;

function transcodeLargest(ktx2) {
  const file = new basis.KTX2File(ktx2);
  if (!file.isValid() || !file.startTranscoding()) throw new Error('the transcoder refuses it');
  const dst = new Uint8Array(file.getImageTranscodedSizeInBytes(0, 0, 0, RGBA32));
  if (!file.transcodeImage(dst, 0, 0, 0, RGBA32, 0, -1, -1)) throw new Error('transcodeImage failed');
  const [width, height] = [file.getWidth(), file.getHeight()];
  file.close();
  file.delete();
  return { width, height, data: dst };
}

const io = new NodeIO().registerExtensions([KHRTextureBasisu]);
for (const [name, options] of [['Fox_etc1s', { isUASTC: false }], ['Fox_uastc', { isUASTC: true, needSupercompression: true }]]) {
  const document = await io.read(path.join(here, '..', 'Fox.glb'));
  document.createExtension(KHRTextureBasisu).setRequired(true);
  for (const texture of document.getRoot().listTextures()) {
    const png = PNG.sync.read(Buffer.from(texture.getImage()));
    const decoded = { data: new Uint8Array(png.data), width: png.width, height: png.height };
    const ktx2 = await encodeToKTX2(texture.getImage(), { ...options, generateMipmap: true, imageDecoder: async () => decoded });
    texture.setImage(ktx2).setMimeType('image/ktx2').setURI('');
    const reference = transcodeLargest(ktx2);
    const out = new PNG({ width: reference.width, height: reference.height });
    out.data = Buffer.from(reference.data);
    fs.writeFileSync(path.join(here, `${name}.rgba.png`), PNG.sync.write(out));
  }
  await io.write(path.join(here, `${name}.glb`), document);
}
fs.rmSync(tools, { recursive: true, force: true });
