#!/bin/sh
# Regenerates the reference fixtures for the Blender-exported models in tests/models/blender/.
# Run from the repository root:  sh tests/oracle/blender/regenerate.sh
# ORACLE points at the three.js oracle (oracle.mjs, validate.mjs, node_modules); default tests/oracle
# (run `npm ci` there once). Set BLENDER=/path/to/blender to re-export the models first (Blender is
# not needed otherwise: the .glb files are committed).
set -eu
ORACLE=${ORACLE:-tests/oracle}
MODELS=tests/models/blender
FIXTURES=tests/oracle/blender

if [ -n "${BLENDER:-}" ]; then
  "$BLENDER" -b --factory-startup --python "$MODELS/export_rigs.py" -- "$MODELS"
fi
for model in "$MODELS"/*.glb; do
  stem=$(basename "${model%.*}")
  # Number of glTF animations, read from the GLB's JSON chunk.
  n=$(node -e 'const b=require("fs").readFileSync(process.argv[1]);const l=b.readUInt32LE(12);
    console.log((JSON.parse(b.subarray(20,20+l).toString()).animations||[]).length)' "$model")
  i=0
  while [ "$i" -lt "$n" ]; do
    node "$ORACLE/oracle.mjs" "$model" --anim "$i" --times auto --digits 9 --out "$FIXTURES/$stem.anim$i.json"
    i=$((i + 1))
  done
  # The report minus its timestamp, so unchanged models give unchanged fixtures.
  node "$ORACLE/validate.mjs" --json "$model" | sed '/"validatedAt":/d' > "$FIXTURES/$stem.validator.json"
done
