#!/usr/bin/env node
// Writes the spec/gloss test models here (the project's own, CC0 1.0):
//   specgloss.glb            three quads with KHR_materials_pbrSpecularGlossiness materials, as
//                            older Sketchfab, 3ds Max and Babylon.js exports write them:
//                              0 "factors": diffuseFactor, specularFactor, glossinessFactor 0.7,
//                                and a metal/rough fallback (metallic 1, roughness 0.2) the
//                                extension overrides;
//                              1 "textured": diffuseTexture (RGBA, alpha 255) and
//                                specularGlossinessTexture (grey specular in RGB, a glossiness
//                                ramp in A), glossinessFactor 0.8, the latter on a
//                                CLAMP_TO_EDGE / NEAREST sampler;
//                              2 "defaults": the extension with no properties.
//   specgloss_metalrough.glb the same file after glTF-Transform 4.5's `metalRough` (what
//                            `gltf-transform metalrough` runs): the independent reference of
//                            what the spec/gloss materials are in glTF's metal/rough model
//                            (diffuse as base colour, metal 0, roughness 1 - glossiness; the
//                            roughness texture's G = 255 - round(A x glossinessFactor); the
//                            specular colour moved to KHR_materials_specular with
//                            KHR_materials_ior 1000).
// Run: node tests/models/specgloss/make.mjs (needs Node.js and the npm registry; installs its
// tools in a temporary folder).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const tools = fs.mkdtempSync(path.join(os.tmpdir(), 'specgloss-tools-'));
execFileSync('npm', ['install', '--silent', '--no-audit', '--no-fund', '@gltf-transform/core@4.5.1',
  '@gltf-transform/extensions@4.5.1', '@gltf-transform/functions@4.5.1', 'pngjs@7.0.0'], { cwd: tools });
const load = (name) => import(pathToFileURL(createRequire(path.join(tools, 'x.js')).resolve(name)).href);
const { Document, NodeIO, TextureInfo } = await load('@gltf-transform/core');
const { ALL_EXTENSIONS, KHRMaterialsPBRSpecularGlossiness } = await load('@gltf-transform/extensions');
const { metalRough } = await load('@gltf-transform/functions');
const { PNG } = (await load('pngjs')).default;

/** A 16x16 RGBA PNG whose pixel (x, y) is `pixel(x, y)`. */
function png(pixel) {
  const image = new PNG({ width: 16, height: 16 });
  for (let y = 0; y < 16; y++) {
    for (let x = 0; x < 16; x++) image.data.set(pixel(x, y), (y * 16 + x) * 4);
  }
  return PNG.sync.write(image);
}

const doc = new Document();
const buffer = doc.createBuffer();
const specGloss = doc.createExtension(KHRMaterialsPBRSpecularGlossiness);
const scene = doc.createScene();

const diffuse = doc.createTexture('diffuse').setMimeType('image/png')
  .setImage(png((x, y) => [(x * 16) & 255, (y * 16) & 255, ((x + y) % 2) * 200, 255]));
const glossy = doc.createTexture('specular_glossiness').setMimeType('image/png')
  .setImage(png((x, y) => [40 + x * 10, 40 + x * 10, 40 + x * 10, y * 17]));

const materials = [
  doc.createMaterial('factors').setMetallicFactor(1).setRoughnessFactor(0.2).setExtension(KHRMaterialsPBRSpecularGlossiness.EXTENSION_NAME,
    specGloss.createPBRSpecularGlossiness().setDiffuseFactor([0.8, 0.3, 0.2, 1])
      .setSpecularFactor([0.5, 0.4, 0.3]).setGlossinessFactor(0.7)),
  doc.createMaterial('textured').setExtension(KHRMaterialsPBRSpecularGlossiness.EXTENSION_NAME, (() => {
    const extension = specGloss.createPBRSpecularGlossiness().setDiffuseTexture(diffuse)
      .setSpecularGlossinessTexture(glossy).setGlossinessFactor(0.8);
    extension.getSpecularGlossinessTextureInfo().setWrapS(TextureInfo.WrapMode.CLAMP_TO_EDGE)
      .setWrapT(TextureInfo.WrapMode.CLAMP_TO_EDGE).setMagFilter(TextureInfo.MagFilter.NEAREST)
      .setMinFilter(TextureInfo.MinFilter.NEAREST);
    return extension;
  })()),
  doc.createMaterial('defaults').setExtension(KHRMaterialsPBRSpecularGlossiness.EXTENSION_NAME, specGloss.createPBRSpecularGlossiness()),
];

materials.forEach((material, i) => {
  const accessor = (type, array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const x = i * 1.5;
  const primitive = doc.createPrimitive().setMaterial(material)
    .setAttribute('POSITION', accessor('VEC3', new Float32Array([x, 0, 0, x + 1, 0, 0, x + 1, 1, 0, x, 1, 0])))
    .setAttribute('NORMAL', accessor('VEC3', new Float32Array([0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1])))
    .setAttribute('TEXCOORD_0', accessor('VEC2', new Float32Array([0, 1, 1, 1, 1, 0, 0, 0])))
    .setIndices(accessor('SCALAR', new Uint16Array([0, 1, 2, 0, 2, 3])));
  const mesh = doc.createMesh(material.getName()).addPrimitive(primitive);
  scene.addChild(doc.createNode(material.getName()).setMesh(mesh));
});

const io = new NodeIO().registerExtensions(ALL_EXTENSIONS);
doc.getRoot().getAsset().generator = 'props tests/models/specgloss/make.mjs';
doc.getRoot().getAsset().copyright = 'CC0 1.0, made by this project';
await io.write(path.join(here, 'specgloss.glb'), doc);
const converted = await io.read(path.join(here, 'specgloss.glb'));
await converted.transform(metalRough());
await io.write(path.join(here, 'specgloss_metalrough.glb'), converted);
fs.rmSync(tools, { recursive: true, force: true });
console.log('wrote specgloss.glb and specgloss_metalrough.glb');
