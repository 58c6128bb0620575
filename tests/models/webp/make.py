#!/usr/bin/env python3
"""Writes `Fox_webp.gltf` here: the Fox (`tests/models/Fox.glb`) with its texture as WebP through
`EXT_texture_webp` (required, no PNG fallback), as glTF-Transform's `webp` command writes it.
The WebP is encoded by Google's `cwebp` (Debian's `webp` package), losslessly, so that its
decoded pixels are the PNG's. Also `quad_webp.gltf`: a textured quad whose two textures are
WebP in data URIs, one lossy (VP8) and one lossless (VP8L), so that the fuzzer, which damages
data URIs, reaches the WebP decoder; and `quad_webp.lossy.pam`, the lossy one as Google's
`dwebp` decodes it (with its default fancy upsampling), the reference for the game's decoder.
Run: `python3 tests/models/webp/make.py`."""

import base64
import json
import struct
import subprocess
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
FOX = HERE.parent / "Fox.glb"

data = FOX.read_bytes()
json_length = struct.unpack_from("<I", data, 12)[0]
document = json.loads(data[20:20 + json_length])
bin_start = 20 + json_length
bin_length = struct.unpack_from("<I", data, bin_start)[0]
binary = data[bin_start + 8:bin_start + 8 + bin_length]

[image] = document["images"]
view = document["bufferViews"][image["bufferView"]]
png = binary[view.get("byteOffset", 0):view.get("byteOffset", 0) + view["byteLength"]]
with tempfile.TemporaryDirectory() as temp:
    (Path(temp) / "texture.png").write_bytes(png)
    subprocess.run(["cwebp", "-quiet", "-lossless", "-exact", str(Path(temp) / "texture.png"),
                    "-o", str(HERE / "Fox_webp.webp")], check=True)

document["images"] = [{"uri": "Fox_webp.webp", "mimeType": "image/webp", "name": image.get("name", "texture")}]
for texture in document["textures"]:
    texture["extensions"] = {"EXT_texture_webp": {"source": texture.pop("source")}}
document["extensionsUsed"] = sorted(set(document.get("extensionsUsed", [])) | {"EXT_texture_webp"})
document["extensionsRequired"] = sorted(set(document.get("extensionsRequired", [])) | {"EXT_texture_webp"})
# The image's view stays (unused) so that the other views keep their indices.
document["buffers"] = [{"byteLength": len(binary), "uri": "Fox_webp.bin"}]
(HERE / "Fox_webp.bin").write_bytes(binary)
(HERE / "Fox_webp.gltf").write_text(json.dumps(document, sort_keys=True, indent=1) + "\n")


def webp(lossless):
    """A 16x16 gradient encoded by cwebp."""
    pixels = bytes((c * 16) % 256 for i in range(256) for c in (i % 16, i // 16, (i * 7) % 16))
    with tempfile.TemporaryDirectory() as temp:
        source, out = Path(temp) / "in.ppm", Path(temp) / "out.webp"
        source.write_bytes(b"P6\n16 16\n255\n" + pixels)
        subprocess.run(["cwebp", "-quiet", *(["-lossless"] if lossless else []), str(source), "-o", str(out)], check=True)
        return out.read_bytes()


def data_uri(mime, data):
    return f"data:{mime};base64," + base64.b64encode(data).decode()


lossy = webp(False)
with tempfile.TemporaryDirectory() as temp:
    (Path(temp) / "lossy.webp").write_bytes(lossy)
    subprocess.run(["dwebp", "-quiet", str(Path(temp) / "lossy.webp"), "-pam", "-o", str(HERE / "quad_webp.lossy.pam")],
                   check=True)

quad = struct.pack("<12f", 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0) + struct.pack("<8f", 0, 1, 1, 1, 1, 0, 0, 0)
quad += struct.pack("<6H", 0, 1, 2, 0, 2, 3)
(HERE / "quad_webp.gltf").write_text(json.dumps({
    "asset": {"version": "2.0", "generator": "tests/models/webp/make.py"},
    "extensionsUsed": ["EXT_texture_webp"], "extensionsRequired": ["EXT_texture_webp"],
    "scene": 0, "scenes": [{"nodes": [0, 1]}],
    "nodes": [{"mesh": 0}, {"mesh": 1, "translation": [1.5, 0, 0]}],
    "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1}, "indices": 2, "material": m}]}
               for m in (0, 1)],
    "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": t}}} for t in (0, 1)],
    "textures": [{"extensions": {"EXT_texture_webp": {"source": i}}} for i in (0, 1)],
    "images": [{"uri": data_uri("image/webp", lossy)}, {"uri": data_uri("image/webp", webp(True))}],
    "buffers": [{"byteLength": len(quad), "uri": data_uri("application/octet-stream", quad)}],
    "bufferViews": [{"buffer": 0, "byteLength": 48, "target": 34962}, {"buffer": 0, "byteOffset": 48, "byteLength": 32, "target": 34962},
                    {"buffer": 0, "byteOffset": 80, "byteLength": 12, "target": 34963}],
    "accessors": [{"bufferView": 0, "componentType": 5126, "count": 4, "type": "VEC3", "min": [0, 0, 0], "max": [1, 1, 0]},
                  {"bufferView": 1, "componentType": 5126, "count": 4, "type": "VEC2"},
                  {"bufferView": 2, "componentType": 5123, "count": 6, "type": "SCALAR"}],
}, sort_keys=True, indent=1) + "\n")
