#!/usr/bin/env python3
"""Writes `Fox_webp.gltf` here: the Fox (`tests/models/Fox.glb`) with its texture as WebP through
`EXT_texture_webp` (required, no PNG fallback), as glTF-Transform's `webp` command writes it.
The WebP is encoded by Google's `cwebp` (Debian's `webp` package), losslessly, so that its
decoded pixels are the PNG's. Run: `python3 tests/models/webp/make.py`."""

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
