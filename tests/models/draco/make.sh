#!/usr/bin/env bash
# Writes the Draco-compressed test models here with glTF-Transform 4.5 (npm `@gltf-transform/cli`,
# Google's Draco encoder from npm `draco3dgltf`), from the sample models in tests/models/:
#   Fox_draco.glb                edgebreaker: POSITION, TEXCOORD_0, JOINTS_0, WEIGHTS_0 (a skin)
#   RiggedSimple_draco.glb       edgebreaker, a skin
#   BoxAnimated_draco_seq.glb    --method sequential, two primitives, a node animation
#   AnimatedMorphCube_draco.glb  NORMAL, TANGENT, POSITION compressed; the morph targets are not
# Run from anywhere: tests/models/draco/make.sh (needs Node.js and the npm registry).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
models="$here/.."
tool="$(mktemp -d)"
trap 'rm -rf "$tool"' EXIT
(cd "$tool" && npm install --silent --no-audit --no-fund @gltf-transform/cli@4.5.1 draco3dgltf@1.5.7 >/dev/null)
draco() { "$tool/node_modules/.bin/gltf-transform" draco "$@" >/dev/null; }
draco "$models/Fox.glb" "$here/Fox_draco.glb"
draco "$models/RiggedSimple.glb" "$here/RiggedSimple_draco.glb"
draco "$models/BoxAnimated.gltf" "$here/BoxAnimated_draco_seq.glb" --method sequential
draco "$models/AnimatedMorphCube/AnimatedMorphCube.gltf" "$here/AnimatedMorphCube_draco.glb"
