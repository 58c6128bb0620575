#!/bin/sh
# Regenerates the project's own test models and their reference fixtures.
# Run from the repository root:  sh tests/oracle/generated/regenerate.sh
# ORACLE points at the three.js oracle (oracle.mjs, validate.mjs, node_modules); default tests/oracle
# (run `npm ci` there once).
set -eu
ORACLE=${ORACLE:-tests/oracle}
MODELS=tests/models/generated
FIXTURES=tests/oracle/generated

cargo xtask gen-test-models --out "$MODELS"
for model in "$MODELS"/*.gltf "$MODELS"/*.glb; do
  stem=$(basename "${model%.*}")
  # Sample times per case: written by the generator next to the model.
  times=$(cat "$MODELS/$stem.times")
  # many_joints has 300+ nodes per frame: skip the three.js cross-check arrays to stay small.
  three=""
  if [ "$stem" = many_joints ]; then three="--no-three"; fi
  node "$ORACLE/oracle.mjs" "$model" --anim 0 --times "$times" --digits 9 $three \
    --out "$FIXTURES/$stem.anim0.json"
  # The report minus its timestamp, so unchanged models give unchanged fixtures.
  node "$ORACLE/validate.mjs" --json "$model" | sed '/"validatedAt":/d' > "$FIXTURES/$stem.validator.json"
done
