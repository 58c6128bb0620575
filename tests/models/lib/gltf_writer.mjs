// The buffer of the project's hand-made test models (tests/models/*/make.mjs): buffer views
// and accessors appended to a glTF JSON the script builds, and the file written with its one
// buffer embedded as a data URI.
import fs from 'node:fs';

export const FLOAT = 5126, USHORT = 5123;
export const ARRAY_BUFFER = 34962, ELEMENT_ARRAY_BUFFER = 34963;
const COMPONENTS = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };

export class GltfWriter {
  // A file written by `generator` (CC0, the project's own) using `extensionsUsed`, with
  // document-level `extensions` if given: one scene, and `json`'s arrays to fill.
  constructor(generator, extensionsUsed, extensions) {
    this.json = {
      asset: { version: '2.0', generator, copyright: 'CC0 1.0, made by this project' },
      extensionsUsed,
      scene: 0,
      scenes: [{ nodes: [] }],
      nodes: [],
      meshes: [],
      materials: [],
      accessors: [],
      bufferViews: [],
      buffers: [],
      ...(extensions ? { extensions } : {}),
    };
    this.chunks = [];
    this.byteLength = 0;
  }

  // A buffer view of `bytes`, 4-byte aligned, for `target` (if given); its index.
  view(bytes, target) {
    const pad = (4 - (this.byteLength % 4)) % 4;
    if (pad) { this.chunks.push(Buffer.alloc(pad)); this.byteLength += pad; }
    this.json.bufferViews.push({ buffer: 0, byteOffset: this.byteLength, byteLength: bytes.length, ...(target ? { target } : {}) });
    this.chunks.push(bytes);
    this.byteLength += bytes.length;
    return this.json.bufferViews.length - 1;
  }

  // An accessor of `values` (FLOAT or USHORT), with min and max where `minMax`; its index.
  accessor(values, type, componentType, minMax, target) {
    const n = COMPONENTS[type];
    const bytes = componentType === FLOAT ? Buffer.from(new Float32Array(values).buffer) : Buffer.from(new Uint16Array(values).buffer);
    const a = { bufferView: this.view(bytes, target), componentType, count: values.length / n, type };
    if (minMax) {
      a.min = []; a.max = [];
      for (let c = 0; c < n; c++) {
        const comp = values.filter((_, i) => i % n === c);
        a.min.push(Math.min(...comp)); a.max.push(Math.max(...comp));
      }
    }
    this.json.accessors.push(a);
    return this.json.accessors.length - 1;
  }

  // Writes the file to `file`, its buffer embedded.
  write(file) {
    const bin = Buffer.concat(this.chunks);
    this.json.buffers.push({ byteLength: bin.length, uri: `data:application/octet-stream;base64,${bin.toString('base64')}` });
    fs.writeFileSync(file, JSON.stringify(this.json, null, 1) + '\n');
  }
}
