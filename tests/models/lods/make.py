#!/usr/bin/env python3
"""Writes `spheres.gltf` here: a sphere of radius 1 with its own levels of detail, as
`MSFT_lod` writes them (Microsoft's extension, which Babylon.js reads).

- Node 0 draws the full sphere (32 x 16 segments, 960 triangles, material 0) and lists nodes 1
  and 2 as its coarser levels: a sphere of 12 x 6 segments (120 triangles) and an octahedron
  (8 triangles). Its `extras.MSFT_screencoverage` is `[0.5, 0.1, 0.01]`: the second level
  below half the screen, the third below a tenth, nothing below a hundredth.
- Nodes 1 and 2 are in the scene too (as Babylon.js's own test documents put them): a reader
  that knows the extension draws only node 0; one that does not draws all three.
- A second primitive of node 0 (a small box, material 1, 12 triangles) has no match in the
  coarser levels: it is not drawn there.
- Node 3 draws the same full sphere, 3 to the right, without the extension: the levels are
  the mesh's, so it draws them too.

Run: `python3 tests/models/lods/make.py`."""

import base64
import json
import math
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
document = {"asset": {"version": "2.0", "generator": "tests/models/lods/make.py"}, "scene": 0,
            "scenes": [{"nodes": [0, 1, 2, 3]}], "nodes": [], "meshes": [], "buffers": [], "bufferViews": [],
            "accessors": [], "extensionsUsed": ["MSFT_lod"],
            "materials": [{"name": "sphere", "pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.3, 0.2, 1]}},
                          {"name": "box", "pbrMetallicRoughness": {"baseColorFactor": [0.2, 0.3, 0.8, 1]}}]}


def put(fmt, values, ty, count, component, target, minmax=None):
    data = struct.pack(f"<{len(values)}{fmt}", *values)
    data += b"\0" * (-len(data) % 4)
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    document["buffers"].append({"byteLength": len(data), "uri": uri})
    document["bufferViews"].append({"buffer": len(document["buffers"]) - 1, "byteLength": len(data), "target": target})
    accessor = {"bufferView": len(document["bufferViews"]) - 1, "componentType": component, "count": count, "type": ty}
    if minmax:
        accessor["min"], accessor["max"] = minmax
    document["accessors"].append(accessor)
    return len(document["accessors"]) - 1


def primitive(positions, normals, indices, material):
    flat = [c for p in positions for c in p]
    bounds = ([min(p[k] for p in positions) for k in range(3)], [max(p[k] for p in positions) for k in range(3)])
    return {"attributes": {"POSITION": put("f", flat, "VEC3", len(positions), 5126, 34962, bounds),
                           "NORMAL": put("f", [c for n in normals for c in n], "VEC3", len(normals), 5126, 34962)},
            "indices": put("H", indices, "SCALAR", len(indices), 5123, 34963), "material": material}


def sphere(around, up):
    """A UV sphere of radius 1: `around` segments about Y, `up` from pole to pole."""
    positions = []
    for i in range(up + 1):
        theta = math.pi * i / up
        for j in range(around + 1):
            phi = 2 * math.pi * j / around
            positions.append([math.sin(theta) * math.cos(phi), math.cos(theta), -math.sin(theta) * math.sin(phi)])
    indices = []
    for i in range(up):
        for j in range(around):
            a, b = i * (around + 1) + j, (i + 1) * (around + 1) + j
            if i > 0:
                indices += [a, b, a + 1]
            if i < up - 1:
                indices += [a + 1, b, b + 1]
    return positions, indices


def octahedron():
    positions = [[1, 0, 0], [0, 0, -1], [-1, 0, 0], [0, 0, 1], [0, 1, 0], [0, -1, 0]]
    indices = []
    for k in range(4):
        indices += [4, k, (k + 1) % 4, 5, (k + 1) % 4, k]
    return positions, indices


def box(centre, half):
    positions, normals, indices = [], [], []
    for axis in range(3):
        for sign in (1, -1):
            n = [0, 0, 0]
            n[axis] = sign
            u, v = [(axis + 1) % 3, (axis + 2) % 3]
            start = len(positions)
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
                p = list(centre)
                p[axis] += sign * half
                p[u] += a * half * sign
                p[v] += b * half
                positions.append(p)
                normals.append(n)
            indices += [start, start + 1, start + 2, start, start + 2, start + 3]
    return positions, normals, indices


full, coarse, coarsest = sphere(32, 16), sphere(12, 6), octahedron()
box_positions, box_normals, box_indices = box([0, 1.05, 0], 0.1)
document["meshes"] = [
    {"name": "sphere", "primitives": [primitive(full[0], full[0], full[1], 0),
                                      primitive(box_positions, box_normals, box_indices, 1)]},
    {"name": "sphere_lod1", "primitives": [primitive(coarse[0], coarse[0], coarse[1], 0)]},
    {"name": "sphere_lod2", "primitives": [primitive(coarsest[0], coarsest[0], coarsest[1], 0)]},
]
document["nodes"] = [
    {"name": "sphere", "mesh": 0, "extensions": {"MSFT_lod": {"ids": [1, 2]}},
     "extras": {"MSFT_screencoverage": [0.5, 0.1, 0.01]}},
    {"name": "sphere_lod1", "mesh": 1},
    {"name": "sphere_lod2", "mesh": 2},
    {"name": "sphere_again", "mesh": 0, "translation": [3, 0, 0]},
]
(HERE / "spheres.gltf").write_text(json.dumps(document, sort_keys=True, indent=1) + "\n")
