#!/bin/sh
# Regenerates the checker's corpus of broken models and their Khronos glTF-Validator fixtures.
# Run from the repository root:  sh tests/oracle/broken/regenerate.sh
# ORACLE points at the folder with validate.mjs and its node_modules; default tests/oracle
# (run `npm ci` there once).
set -eu
ORACLE=${ORACLE:-tests/oracle}
MODELS=tests/models/broken
FIXTURES=tests/oracle/broken

cargo xtask gen-broken-models --out "$MODELS"
for model in "$MODELS"/*.gltf "$MODELS"/*.glb; do
  stem=$(basename "${model%.*}")
  # validate.mjs exits 1 for files with errors, which is every file here; trim.mjs keeps the
  # codes, pointers and messages (no timestamp).
  { node "$ORACLE/validate.mjs" --json "$model" || true; } | node "$FIXTURES/trim.mjs" > "$FIXTURES/$stem.validator.json"
done
