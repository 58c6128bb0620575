// Shapes of the project's hand-made test models (tests/models/*/make.mjs).

import { ARRAY_BUFFER, ELEMENT_ARRAY_BUFFER, FLOAT, USHORT } from './gltf_writer.mjs';

// A UV sphere of radius `r` about the origin (`slices` x `stacks` quads, smooth normals, v
// from pole to pole): positions, normals, UVs and triangle indices, as flat arrays.
export function sphere(r = 0.45, slices = 48, stacks = 24) {
  const p = [], nrm = [], uv = [], idx = [];
  for (let j = 0; j <= stacks; j++) {
    const theta = (Math.PI * j) / stacks;
    for (let i = 0; i <= slices; i++) {
      const phi = (2 * Math.PI * i) / slices;
      const n = [Math.sin(theta) * Math.cos(phi), Math.cos(theta), -Math.sin(theta) * Math.sin(phi)];
      nrm.push(...n);
      p.push(...n.map((c) => c * r));
      uv.push(i / slices, j / stacks);
    }
  }
  for (let j = 0; j < stacks; j++) for (let i = 0; i < slices; i++) {
    const a = j * (slices + 1) + i, b = a + slices + 1;
    idx.push(a, b, a + 1, a + 1, b, b + 1);
  }
  return { p, nrm, uv, idx };
}

// A default `sphere()` written into `writer`: the primitive's attributes (POSITION, NORMAL,
// TEXCOORD_0) and its indices' accessor.
export function sphereAccessors(writer) {
  const shape = sphere();
  return {
    attributes: {
      POSITION: writer.accessor(shape.p, 'VEC3', FLOAT, true, ARRAY_BUFFER),
      NORMAL: writer.accessor(shape.nrm, 'VEC3', FLOAT, false, ARRAY_BUFFER),
      TEXCOORD_0: writer.accessor(shape.uv, 'VEC2', FLOAT, false, ARRAY_BUFFER),
    },
    indices: writer.accessor(shape.idx, 'SCALAR', USHORT, false, ELEMENT_ARRAY_BUFFER),
  };
}

// The default `sphere()`'s tangents written into `writer` (a TANGENT accessor): the direction
// of increasing u (its longitude, phi), whose bitangent (the normal cross the tangent) points
// to decreasing v, north.
export function sphereTangents(writer) {
  const shape = sphere();
  const tangents = [];
  for (let k = 0; k < shape.uv.length / 2; k++) {
    const phi = 2 * Math.PI * shape.uv[2 * k];
    tangents.push(-Math.sin(phi), 0, -Math.cos(phi), 1);
  }
  return writer.accessor(tangents, 'VEC4', FLOAT, false, ARRAY_BUFFER);
}
