#!/usr/bin/env bash
# Writes the meshopt-compressed test models here with gltfpack 1.3 (npm `gltfpack`, its
# WebAssembly build: no native binary), from the sample models in tests/models/:
#   Fox_c.glb         -c: EXT_meshopt_compression (ATTRIBUTES, TRIANGLES), KHR_mesh_quantization
#   Fox_cc.glb        -cc -vpf -vn 12: EXPONENTIAL positions, OCTAHEDRAL normals, QUATERNION rotations
#   BoxAnimated_c.glb -c, a node animation
#   AnimatedMorphCube_cc.glb -cc, morph targets
# Run from anywhere: tests/models/meshopt/make.sh (needs Node.js and the npm registry).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
models="$here/.."
tool="$(mktemp -d)"
trap 'rm -rf "$tool"' EXIT
(cd "$tool" && npm install --silent --no-audit --no-fund gltfpack@1.3.0 >/dev/null)
pack() { "$tool/node_modules/.bin/gltfpack" "$@" >/dev/null; }
pack -i "$models/Fox.glb" -o "$here/Fox_c.glb" -c
pack -i "$models/Fox.glb" -o "$here/Fox_cc.glb" -cc -vpf -vn 12
pack -i "$models/BoxAnimated.gltf" -o "$here/BoxAnimated_c.glb" -c
pack -i "$models/AnimatedMorphCube/AnimatedMorphCube.gltf" -o "$here/AnimatedMorphCube_cc.glb" -cc
