#!/usr/bin/env python3
"""Writes two files here.

`boxes.gltf`: BoxAnimated (`tests/models/BoxAnimated.gltf`) with `EXT_mesh_gpu_instancing` on
its static outer box (node 3: four instances, translated, turned and scaled) and on its
animated inner box (node 2, under an animated translation: three instances, translated only),
as glTF-Transform's `instance` command writes repeated meshes.

`cubes.gltf`: a unit cube (24 vertices, flat normals) without a material, drawn by one node
as six instances turned about different axes and scaled unevenly, as generators of instanced
scenes write them: the glTF default material (white, fully metallic, fully rough) on every
face, the case where three.js's multiple-scattering energy shows most.
Run: `python3 tests/models/instancing/make.py`."""

import base64
import json
import math
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
document = json.loads((HERE.parent / "BoxAnimated.gltf").read_text())


def add(floats, ty, count):
    data = struct.pack(f"<{len(floats)}f", *floats)
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    document["buffers"].append({"byteLength": len(data), "uri": uri})
    document["bufferViews"].append({"buffer": len(document["buffers"]) - 1, "byteLength": len(data)})
    document["accessors"].append({"bufferView": len(document["bufferViews"]) - 1, "componentType": 5126,
                                  "count": count, "type": ty})
    return len(document["accessors"]) - 1


def about_y(degrees):
    half = math.radians(degrees) / 2
    return [0.0, math.sin(half), 0.0, math.cos(half)]


outer = {
    "TRANSLATION": add([0, 0, 0, 3, 0, 0, 0, 0, 3, -3, 0.5, 0], "VEC3", 4),
    "ROTATION": add(about_y(0) + about_y(30) + about_y(90) + about_y(-45), "VEC4", 4),
    "SCALE": add([1, 1, 1, 0.5, 0.5, 0.5, 1, 2, 1, 1.5, 1.5, 1.5], "VEC3", 4),
}
inner = {"TRANSLATION": add([0, 0, 0, 0, 0, -1.5, 0, 0, 1.5], "VEC3", 3)}
document["nodes"][3]["extensions"] = {"EXT_mesh_gpu_instancing": {"attributes": outer}}
document["nodes"][2]["extensions"] = {"EXT_mesh_gpu_instancing": {"attributes": inner}}
document["extensionsUsed"] = ["EXT_mesh_gpu_instancing"]
(HERE / "boxes.gltf").write_text(json.dumps(document, sort_keys=True, indent=1) + "\n")


def cubes():
    """The instanced cubes file (see the module's doc)."""
    cube = {"asset": {"version": "2.0", "generator": "tests/models/instancing/make.py"}, "scene": 0,
            "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}], "meshes": [{"primitives": [{"attributes": {}}]}],
            "buffers": [], "bufferViews": [], "accessors": [], "extensionsUsed": ["EXT_mesh_gpu_instancing"]}

    def put(fmt, values, ty, count, component=5126, extra=None):
        data = struct.pack(f"<{len(values)}{fmt}", *values)
        data += b"\0" * (-len(data) % 4)
        uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
        cube["buffers"].append({"byteLength": len(data), "uri": uri})
        cube["bufferViews"].append({"buffer": len(cube["buffers"]) - 1, "byteLength": len(data)})
        accessor = {"bufferView": len(cube["bufferViews"]) - 1, "componentType": component, "count": count,
                    "type": ty}
        accessor.update(extra or {})
        cube["accessors"].append(accessor)
        return len(cube["accessors"]) - 1

    # Each face: its normal n and two axes u, v with u x v = n (counter-clockwise seen from outside).
    faces = [((1, 0, 0), (0, 1, 0), (0, 0, 1)), ((-1, 0, 0), (0, 1, 0), (0, 0, -1)),
             ((0, 1, 0), (0, 0, 1), (1, 0, 0)), ((0, -1, 0), (0, 0, -1), (1, 0, 0)),
             ((0, 0, 1), (1, 0, 0), (0, 1, 0)), ((0, 0, -1), (-1, 0, 0), (0, 1, 0))]
    positions, normals, indices = [], [], []
    for n, u, v in faces:
        base = len(positions) // 3
        for a, b in [(-1, -1), (1, -1), (1, 1), (-1, 1)]:
            positions += [0.5 * (n[k] + a * u[k] + b * v[k]) for k in range(3)]
            normals += list(n)
        indices += [base, base + 1, base + 2, base, base + 2, base + 3]
    primitive = cube["meshes"][0]["primitives"][0]
    primitive["attributes"]["POSITION"] = put("f", positions, "VEC3", 24, extra={"min": [-0.5] * 3, "max": [0.5] * 3})
    primitive["attributes"]["NORMAL"] = put("f", normals, "VEC3", 24)
    primitive["indices"] = put("H", indices, "SCALAR", 36, component=5123)

    def turn(axis, degrees):
        length = math.sqrt(sum(a * a for a in axis))
        half = math.radians(degrees) / 2
        return [a / length * math.sin(half) for a in axis] + [math.cos(half)]

    translations = [-3, 0, 0, 0, 0, 0, 3, 0, 0, -3, 0, -3, 0, 0, -3, 3, 0, -3]
    rotations = (turn((0, 1, 0), 0) + turn((0, 1, 0), 30) + turn((1, 0, 0), 45) + turn((1, 1, 0), 60)
                 + turn((0, 0, 1), -30) + turn((1, 2, 3), 80))
    scales = [1, 1, 1, 0.5, 0.5, 0.5, 1, 2, 1, 1.5, 0.5, 1, 2, 1, 0.5, 0.7, 1.3, 1.6]
    cube["nodes"][0]["extensions"] = {"EXT_mesh_gpu_instancing": {"attributes": {
        "TRANSLATION": put("f", translations, "VEC3", 6),
        "ROTATION": put("f", rotations, "VEC4", 6),
        "SCALE": put("f", scales, "VEC3", 6)}}}
    (HERE / "cubes.gltf").write_text(json.dumps(cube, sort_keys=True, indent=1) + "\n")


cubes()
