#!/bin/sh
# Regenerates every expected file in this folder (run from this folder, after `npm ci`).
# Also re-runs the self-tests (Babylon vs raw keys, unit quaternions, STEP plateaus, and the
# spec fallback vs a patched Babylon); any FAIL stops the script.
set -e
M=../../models/pointers
K=../../../../shared/models/khronos
for f in pointer_nodes pointer_material pointer_texture_transform pointer_visibility pointer_lights; do
  n=$(node -e "console.log(JSON.parse(require('fs').readFileSync('$M/$f.gltf','utf8')).animations.length)")
  i=0
  while [ $i -lt $n ]; do
    node pointer_oracle.mjs $M/$f.gltf --anim $i --selftest --patch-babylon
    node pointer_oracle.mjs $M/$f.gltf --anim $i --selftest > /dev/null
    node pointer_oracle.mjs $M/$f.gltf --anim $i --times auto --digits 9 --out $f.anim$i.json
    i=$((i + 1))
  done
done
for i in 0 1 2; do
  node pointer_oracle.mjs $K/WhackAMole.glb --anim $i --selftest
  node pointer_oracle.mjs $K/WhackAMole.glb --anim $i --times auto --digits 9 --out WhackAMole.anim$i.json
done
