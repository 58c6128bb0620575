#!/usr/bin/env python3
"""Writes `boxes.gltf` here: BoxAnimated (`tests/models/BoxAnimated.gltf`) with
`EXT_mesh_gpu_instancing` on its static outer box (node 3: four instances, translated, turned
and scaled) and on its animated inner box (node 2, under an animated translation: three
instances, translated only), as glTF-Transform's `instance` command writes repeated meshes.
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
