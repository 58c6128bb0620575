// Browser side of the glTF render reference (loaded by render.html, driven by render.mjs).
// Exposes window.renderGltf(opts): loads one glTF with three.js's GLTFLoader, poses it, sets up
// camera, lights and background by the conventions in README.md, renders one frame with
// WebGLRenderer and returns the canvas pixels plus every derived setting.
import * as THREE from 'three';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { DRACOLoader } from 'three/addons/loaders/DRACOLoader.js';
import { KTX2Loader } from 'three/addons/loaders/KTX2Loader.js';
import { MeshoptDecoder } from 'three/addons/libs/meshopt_decoder.module.js';

const DEFAULT_DIR = [1, 0.6, 1.2]; // auto-framing: the camera looks from c + normalize(DEFAULT_DIR) * dist

const canvas = document.createElement('canvas');
document.body.appendChild(canvas);
const renderer = new THREE.WebGLRenderer({
  canvas,
  antialias: true, // MSAA on the default framebuffer
  alpha: false,
  preserveDrawingBuffer: true,
  powerPreference: 'default',
});
renderer.setPixelRatio(1);
renderer.toneMapping = THREE.NoToneMapping;
renderer.outputColorSpace = THREE.SRGBColorSpace;
renderer.shadowMap.enabled = false;

const gl = renderer.getContext();
if (!gl) throw new Error('no WebGL context');

function glInfo() {
  const ext = gl.getExtension('WEBGL_debug_renderer_info');
  return {
    webgl2: typeof WebGL2RenderingContext !== 'undefined' && gl instanceof WebGL2RenderingContext,
    version: gl.getParameter(gl.VERSION),
    shading_language: gl.getParameter(gl.SHADING_LANGUAGE_VERSION),
    vendor: ext ? gl.getParameter(ext.UNMASKED_VENDOR_WEBGL) : gl.getParameter(gl.VENDOR),
    renderer: ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER),
    samples: gl.getParameter(gl.SAMPLES),
    antialias: gl.getContextAttributes().antialias,
  };
}

const draco = new DRACOLoader();
draco.setDecoderPath('/three/examples/jsm/libs/draco/');
const ktx2 = new KTX2Loader();
ktx2.setTranscoderPath('/three/examples/jsm/libs/basis/');
ktx2.detectSupport(renderer);
const loader = new GLTFLoader();
loader.setDRACOLoader(draco);
loader.setKTX2Loader(ktx2);
loader.setMeshoptDecoder(MeshoptDecoder);

const v3 = (a) => new THREE.Vector3(a[0], a[1], a[2]);
const arr = (v) => [v.x, v.y, v.z];

// World-space axis-aligned box of the posed vertices: every vertex of every Mesh (SkinnedMesh and
// InstancedMesh included; Points/Lines are not meshes) with morph targets and skinning applied by
// Mesh.getVertexPosition, then the mesh's world matrix (and each instance's matrix first).
function posedBox(root) {
  const box = new THREE.Box3();
  const v = new THREE.Vector3();
  const m = new THREE.Matrix4();
  const im = new THREE.Matrix4();
  let meshes = 0, vertices = 0;
  root.traverse((o) => {
    if (!o.isMesh) return;
    const pos = o.geometry && o.geometry.attributes.position;
    if (!pos) return;
    meshes++;
    const instances = o.isInstancedMesh ? o.count : 1;
    for (let k = 0; k < instances; k++) {
      if (o.isInstancedMesh) { o.getMatrixAt(k, im); m.multiplyMatrices(o.matrixWorld, im); } else m.copy(o.matrixWorld);
      for (let i = 0; i < pos.count; i++) {
        o.getVertexPosition(i, v);
        v.applyMatrix4(m);
        box.expandByPoint(v);
        vertices++;
      }
    }
  });
  return { box, meshes, vertices };
}

async function applyMaterialVariant(parser, root, name) {
  const ext = 'KHR_materials_variants';
  const names = ((parser.json.extensions || {})[ext] || {}).variants || [];
  const variant = names.findIndex((v) => v.name === name);
  if (variant < 0) throw new Error(`--material-variant ${name}: the file has ${JSON.stringify(names.map((v) => v.name))}`);
  const meshes = [];
  root.traverse((o) => { if (o.isMesh) meshes.push(o); });
  for (const mesh of meshes) {
    const at = parser.associations.get(mesh);
    if (!at || at.meshes === undefined || at.primitives === undefined) continue;
    const primitive = parser.json.meshes[at.meshes].primitives[at.primitives];
    const mappings = ((primitive.extensions || {})[ext] || {}).mappings || [];
    const mapping = mappings.find((m) => m.variants.includes(variant));
    if (!mapping) continue;
    mesh.material = await parser.getDependency('material', mapping.material);
    parser.assignFinalMaterial(mesh);
  }
}

window.renderGltf = async function renderGltf(opts) {
  const warnings = [];
  const gltf = await loader.loadAsync(opts.url);
  const root = gltf.scene || (gltf.scenes && gltf.scenes[0]);
  if (!root) throw new Error('the glTF has no scene');

  // `--material-variant NAME`: each primitive mapped in KHR_materials_variants to that variant takes the
  // mapped material, as the extension says (three.js's loader reads the file's own materials
  // only), through the loader's own material and its final touches (vertex colours, tangents).
  if (opts.materialVariant) await applyMaterialVariant(gltf.parser, root, opts.materialVariant);

  // The file's own lights (KHR_lights_punctual) are removed, unless `--lights file` keeps them.
  const fileLights = [];
  root.traverse((o) => { if (o.isLight) fileLights.push(o); });
  const keptLights = opts.lights === 'file' ? fileLights : [];
  if (opts.lights !== 'file') for (const l of fileLights) l.removeFromParent();

  // Pose: rest pose, or clip `index` at `time` (LoopOnce + clampWhenFinished: clamp(time, 0, duration)).
  let animation = null;
  if (opts.anim) {
    const clip = gltf.animations[opts.anim.index];
    if (!clip) throw new Error(`animation ${opts.anim.index} not found (file has ${gltf.animations.length})`);
    const mixer = new THREE.AnimationMixer(root);
    const action = mixer.clipAction(clip);
    action.setLoop(THREE.LoopOnce, 1);
    action.clampWhenFinished = true;
    action.play();
    mixer.setTime(opts.anim.time);
    animation = {
      index: opts.anim.index, name: clip.name, duration: clip.duration,
      time: opts.anim.time, clip_time: action.time, tracks: clip.tracks.length,
    };
  }

  const scene = new THREE.Scene();
  scene.add(root);
  scene.updateMatrixWorld(true);
  root.traverse((o) => { if (o.isSkinnedMesh) o.skeleton.update(); });

  // Framing box (always computed: near/far use it also when the camera is given).
  let { box, meshes, vertices } = posedBox(root);
  let c, r;
  if (box.isEmpty()) {
    warnings.push('no mesh vertices: box taken as centre 0, radius 1');
    c = new THREE.Vector3(0, 0, 0); r = 1;
  } else {
    c = box.getCenter(new THREE.Vector3());
    r = box.getSize(new THREE.Vector3()).length() / 2;
    if (!(r > 0)) { warnings.push('zero-size box: radius taken as 1'); r = 1; }
  }

  const W = opts.width, H = opts.height, aspect = W / H;
  const yfovDeg = opts.camera ? opts.camera.yfov : opts.yfov;
  const yfov = yfovDeg * Math.PI / 180;
  const hfov = 2 * Math.atan(Math.tan(yfov / 2) * aspect);
  let eye, target, dist;
  if (opts.camera && opts.camera.eye) {
    eye = v3(opts.camera.eye);
    target = v3(opts.camera.target);
    dist = eye.distanceTo(c); // distance from the eye to the box centre
  } else {
    const d = v3(DEFAULT_DIR).normalize();
    dist = r / Math.sin(Math.min(yfov / 2, hfov / 2));
    eye = c.clone().addScaledVector(d, dist);
    target = c.clone();
  }
  const near = Math.max(dist - 2 * r, r / 1000);
  const far = dist + 2 * r;

  const camera = new THREE.PerspectiveCamera(yfovDeg, aspect, near, far);
  camera.up.set(0, 1, 0);
  camera.position.copy(eye);
  camera.lookAt(target);
  camera.updateMatrixWorld(true);
  camera.updateProjectionMatrix();

  // Directional light shining FROM `dir`: three's light direction uniform is
  // normalize(light world position - target world position), so position = normalize(dir),
  // target at the world origin (both in the scene, no parents): exactly `dir`, whatever the model.
  const L = opts.light;
  const sun = new THREE.DirectionalLight(new THREE.Color().setRGB(L.color[0], L.color[1], L.color[2], THREE.LinearSRGBColorSpace), L.intensity);
  sun.position.copy(v3(L.dir).normalize());
  sun.target.position.set(0, 0, 0);
  sun.castShadow = false;
  scene.add(sun);
  scene.add(sun.target);
  const A = opts.ambient;
  scene.add(new THREE.AmbientLight(new THREE.Color().setRGB(A[0], A[1], A[2], THREE.LinearSRGBColorSpace), 1));
  const B = opts.background;
  scene.background = new THREE.Color().setRGB(B[0], B[1], B[2], THREE.SRGBColorSpace);
  scene.environment = null;
  scene.updateMatrixWorld(true);

  renderer.setSize(W, H, false);
  renderer.setViewport(0, 0, W, H);
  renderer.setRenderTarget(null);
  renderer.render(scene, camera);

  // Canvas pixels (the default framebuffer, MSAA-resolved), top row first.
  const raw = new Uint8Array(W * H * 4);
  gl.readPixels(0, 0, W, H, gl.RGBA, gl.UNSIGNED_BYTE, raw);
  const px = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) px.set(raw.subarray((H - 1 - y) * W * 4, (H - y) * W * 4), y * W * 4);

  // Cross-check: the canvas as the browser itself encodes it (toDataURL) decodes to the same bytes.
  let canvasCheck = null;
  if (opts.checkCanvas) {
    const url = canvas.toDataURL('image/png');
    const img = new Image();
    img.src = url;
    await img.decode();
    const c2 = document.createElement('canvas');
    c2.width = W; c2.height = H;
    const ctx = c2.getContext('2d', { colorSpace: 'srgb', willReadFrequently: true });
    ctx.drawImage(img, 0, 0);
    const d2 = ctx.getImageData(0, 0, W, H, { colorSpace: 'srgb' }).data;
    let maxDiff = 0;
    for (let i = 0; i < d2.length; i++) maxDiff = Math.max(maxDiff, Math.abs(d2[i] - px[i]));
    canvasCheck = { todataurl_vs_readpixels_max_abs_diff: maxDiff };
  }

  let bin = '';
  for (let i = 0; i < px.length; i += 0x8000) bin += String.fromCharCode.apply(null, px.subarray(i, i + 0x8000));

  // Dispose GPU resources of this model (the page is reloaded per render anyway).
  root.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    const mats = o.material ? (Array.isArray(o.material) ? o.material : [o.material]) : [];
    for (const m of mats) { for (const k in m) if (m[k] && m[k].isTexture) m[k].dispose(); m.dispose(); }
  });

  return {
    width: W, height: H, rgba_base64: btoa(bin),
    three_revision: THREE.REVISION,
    gl: glInfo(),
    box: { min: arr(box.min), max: arr(box.max), center: arr(c), radius: r, meshes, vertices },
    camera: {
      eye: arr(eye), target: arr(target), up: [0, 1, 0], yfov_deg: yfovDeg,
      hfov_deg: hfov * 180 / Math.PI, aspect, dist, near, far,
      light_direction_world: arr(sun.position.clone().sub(sun.target.position).normalize()),
    },
    animation,
    removed_file_lights: opts.lights === 'file' ? [] : fileLights.map((l) => ({ type: l.type, name: l.name })),
    file_lights: keptLights.map((l) => ({
      type: l.type, name: l.name, intensity: l.intensity, distance: l.distance, decay: l.decay,
      ...(l.isSpotLight ? { angle: l.angle, penumbra: l.penumbra } : {}),
    })),
    file_cameras: (gltf.cameras || []).length,
    canvas_check: canvasCheck,
    warnings,
  };
};

window.renderGltfReady = true;
