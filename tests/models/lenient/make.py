#!/usr/bin/env python3
"""Writes the lenient test models: files that break a glTF rule the way real exporters do, and
that three.js loads all the same. Each is an edit of a sample model in `tests/models/`, or a
small model of its own, written next to this script; run it from anywhere:
`python3 tests/models/lenient/make.py`. The output is deterministic (sorted keys, shortest
float formatting)."""

import base64
import copy
import json
import math
import struct
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODELS = HERE.parent


def load(name):
    return json.loads((MODELS / name).read_text())


def write(name, document):
    text = json.dumps(document, sort_keys=True, indent=1) + "\n"
    (HERE / name).write_text(text)


def add_buffer(document, chunks):
    """Appends a data-URI buffer holding `chunks` (each (type, componentType, floats, count)) and
    one bufferView plus accessor per chunk; returns the accessor indices."""
    data = b""
    views = []
    for ty, floats, count in chunks:
        offset = len(data)
        data += struct.pack(f"<{len(floats)}f", *floats)
        views.append((offset, len(floats) * 4, ty, count, floats))
    buffer = len(document["buffers"])
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    document["buffers"].append({"byteLength": len(data), "uri": uri})
    accessors = []
    width = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4}
    for offset, length, ty, count, floats in views:
        document["bufferViews"].append({"buffer": buffer, "byteOffset": offset, "byteLength": length})
        n = width[ty]
        columns = [floats[i::n] for i in range(n)]
        document["accessors"].append({
            "bufferView": len(document["bufferViews"]) - 1, "componentType": 5126, "count": count, "type": ty,
            "min": [min(c) for c in columns], "max": [max(c) for c in columns],
        })
        accessors.append(len(document["accessors"]) - 1)
    return accessors


def about_y(degrees):
    half = math.radians(degrees) / 2
    return [0.0, math.sin(half), 0.0, math.cos(half)]


def duplicate_targets():
    """BoxAnimated with its inner box's rotation animated by three channels (the second and
    third share a sampler: three.js mixes them in at 1/2, then 1/3) and its outer node's
    translation by a second, STEP channel with other key times (legacy Blender exports)."""
    document = load("BoxAnimated.gltf")
    times, rotations, step_times, steps = add_buffer(document, [
        ("SCALAR", [0.0, 1.0, 3.0], 3),
        ("VEC4", about_y(0) + about_y(90) + about_y(200), 3),
        ("SCALAR", [0.5, 2.0, 3.5], 3),
        ("VEC3", [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0], 3),
    ])
    animation = document["animations"][0]
    animation["samplers"].append({"input": times, "output": rotations, "interpolation": "LINEAR"})
    animation["samplers"].append({"input": step_times, "output": steps, "interpolation": "STEP"})
    animation["channels"] += [
        {"sampler": 2, "target": {"node": 2, "path": "rotation"}},
        {"sampler": 3, "target": {"node": 0, "path": "translation"}},
        {"sampler": 2, "target": {"node": 2, "path": "rotation"}},
    ]
    write("duplicate_targets.gltf", document)


def sampler_strides():
    """BoxAnimated with a byteStride on the views of its animation samplers, as older Sketchfab
    exports write them (the stride of tightly packed data)."""
    document = load("BoxAnimated.gltf")
    for view, stride in [(2, 4), (3, 16), (4, 12)]:
        document["bufferViews"][view]["byteStride"] = stride
    write("sampler_strides.gltf", document)


def skin_strides():
    """SimpleSkin with a byteStride on the view of its inverse bind matrices, as older Sketchfab
    exports write it (its sampler's times and rotations share one view, which no one stride
    fits)."""
    document = load("SimpleSkin.gltf")
    for skin in document["skins"]:
        view = document["accessors"][skin["inverseBindMatrices"]]["bufferView"]
        document["bufferViews"][view]["byteStride"] = 64
    write("skin_strides.gltf", document)


def non_root_scene_node():
    """BoxAnimated whose scene also lists node 2, a child of node 1."""
    document = load("BoxAnimated.gltf")
    document["scenes"][0]["nodes"].append(2)
    write("non_root_scene_node.gltf", document)


def unweighted_vertices():
    """SimpleSkin with two vertices bound to no joint (their weights all zero, as exporters
    write a vertex in no vertex group): vertex 6 lists joint 1 first, vertex 7 joint 0. three.js
    normalizes them onto the first joint each lists."""
    document = load("SimpleSkin.gltf")
    buffer = document["buffers"][1]
    head, data = buffer["uri"].split(",", 1)
    data = bytearray(base64.b64decode(data))
    # Buffer 1 holds JOINTS_0 (4 x u16, 16 bytes a vertex) then WEIGHTS_0 (4 x f32) 160 in.
    for vertex, joints in [(6, (1, 0, 0, 0)), (7, (0, 1, 0, 0))]:
        data[16 * vertex:16 * vertex + 8] = struct.pack("<4H", *joints)
        data[160 + 16 * vertex:160 + 16 * vertex + 16] = struct.pack("<4f", 0, 0, 0, 0)
    buffer["uri"] = head + "," + base64.b64encode(bytes(data)).decode()
    joints = document["accessors"][document["meshes"][0]["primitives"][0]["attributes"]["JOINTS_0"]]
    joints["max"], joints["min"] = [1, 1, 0, 0], [0, 0, 0, 0]
    write("unweighted_vertices.gltf", document)


def invalid_attribute():
    """BoxAnimated whose inner box has a custom attribute named without the leading underscore
    glTF asks of one (`BATCHID`, as older 3D Tiles tools write it). three.js keeps it as a
    geometry attribute no material reads."""
    document = load("BoxAnimated.gltf")
    primitive = document["meshes"][0]["primitives"][0]
    count = document["accessors"][primitive["attributes"]["POSITION"]]["count"]
    (batch,) = add_buffer(document, [("SCALAR", [float(v % 2) for v in range(count)], count)])
    primitive["attributes"]["BATCHID"] = batch
    write("invalid_attribute.gltf", document)


def uv_set_gap():
    """BoxAnimated whose outer box has UV sets 0 and 2 and no set 1 (a UV map deleted between
    two others by a tool that kept their numbers)."""
    document = load("BoxAnimated.gltf")
    primitive = document["meshes"][1]["primitives"][0]
    count = document["accessors"][primitive["attributes"]["POSITION"]]["count"]
    uvs = [float(v % 3) / 2 for v in range(2 * count)]
    first, third = add_buffer(document, [("VEC2", uvs, count), ("VEC2", uvs[::-1], count)])
    primitive["attributes"]["TEXCOORD_0"] = first
    primitive["attributes"]["TEXCOORD_2"] = third
    write("uv_set_gap.gltf", document)


def primitive_restart():
    """A 16 x 16 grid of vertices whose triangles are listed by 8-bit indices, the cell at the
    far corner first (vertex 255, the largest 8-bit value, is in it): exporters write such a list
    for a mesh of 256 vertices, reordered for the vertex cache. WebGL 2 restarts on the value:
    three.js draws no triangle with it and assembles every later triangle one index on."""
    positions, normals = [], []
    for j in range(16):
        for i in range(16):
            positions += [i / 15, j / 15, 0.0]
            normals += [0.0, 0.0, 1.0]
    cells = [(i, j) for j in range(15) for i in range(15)]
    indices = []
    for i, j in cells[-1:] + cells[:-1]:
        a = 16 * j + i
        indices += [a, a + 1, a + 17, a, a + 17, a + 16]
    floats = struct.pack(f"<{len(positions) + len(normals)}f", *positions, *normals)
    data = floats + bytes(indices) + bytes(-len(indices) % 4)
    document = {
        "asset": {"version": "2.0", "generator": "tests/models/lenient/make.py"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"mesh": 0, "name": "grid"}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "NORMAL": 1}, "indices": 2, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorFactor": [0.8, 0.3, 0.1, 1.0], "metallicFactor": 0.0,
                                                "roughnessFactor": 0.7}, "doubleSided": True}],
        "buffers": [{"byteLength": len(data),
                     "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()}],
        "bufferViews": [
            {"buffer": 0, "byteLength": len(floats), "byteStride": 12, "target": 34962},
            {"buffer": 0, "byteOffset": len(floats), "byteLength": len(indices), "target": 34963},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 256, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 0, "byteOffset": len(positions) * 4, "componentType": 5126, "count": 256,
             "type": "VEC3"},
            {"bufferView": 1, "componentType": 5121, "count": len(indices), "type": "SCALAR"},
        ],
    }
    write("primitive_restart.gltf", document)


def matrix_of(translation, rotation, scale):
    """The column-major 4x4 matrix of a translation, a unit quaternion (x, y, z, w) and a scale."""
    x, y, z, w = rotation
    turn = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ]
    columns = [[turn[row][col] * scale[col] for row in range(3)] + [0.0] for col in range(3)]
    return [v for column in columns for v in column] + list(translation) + [1.0]


def animated_matrix_nodes():
    """BoxAnimated with both animated nodes given by a `matrix` (as some converters write
    them; glTF forbids animating such a node): the outer node's matrix scales it
    unequally and its clip moves it, the inner one's turns and moves it and its clip turns it.
    three.js takes each matrix apart into translation, rotation and scale and plays the clip."""
    document = load("BoxAnimated.gltf")
    outer, inner = document["nodes"][0], document["nodes"][2]
    for node in (outer, inner):
        node.pop("rotation", None)
    outer["matrix"] = matrix_of([0.0, 0.5, 0.0], about_y(30), [1.5, 1.0, 0.5])
    inner["matrix"] = matrix_of([0.25, 0.0, -0.5], about_y(-45), [1.0, 2.0, 1.0])
    write("animated_matrix_nodes.gltf", document)


def as_floats(value):
    """`value` with every integer written as a float (`24` as `24.0`), extras left as they are."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, list):
        return [as_floats(v) for v in value]
    if isinstance(value, dict):
        return {k: v if k == "extras" else as_floats(v) for k, v in value.items()}
    return value


def integers_as_floats():
    """SimpleSkin with every integer written as a float (`"count": 10.0`, `"joints": [1.0, 2.0]`),
    as writers that keep every number a float write them (cqparts did). JSON has one number
    type; three.js and the Khronos validator read them as the integers they are."""
    write("integers_as_floats.gltf", as_floats(load("SimpleSkin.gltf")))


duplicate_targets()
sampler_strides()
skin_strides()
non_root_scene_node()
unweighted_vertices()
primitive_restart()
invalid_attribute()
uv_set_gap()
animated_matrix_nodes()
integers_as_floats()
