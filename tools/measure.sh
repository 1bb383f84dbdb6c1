#!/usr/bin/env bash
# Reproduce the accuracy figures in the README.
#   1. WNUT17: train on wnut17train.conll only, sweep on emerging.dev.conll.
#   2. 5-fold cross-validation (grouped by thread) on the fictional hand-tagged sample.
# Usage: bash tools/measure.sh [WNUT_DIR] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
wnut=${1:-../shared/data/wnut17}
out=${2:-out/measure}
mkdir -p "$out"
python3 bin/mmbdeid train "$wnut/wnut17train.conll" -o "$out/wnut-train.mmbdeid"
python3 bin/mmbdeid evaluate "$wnut/emerging.dev.conll" --model "$out/wnut-train.mmbdeid"
python3 bin/mmbdeid sweep "$wnut/emerging.dev.conll" --model "$out/wnut-train.mmbdeid" \
    -o "$out/wnut-dev-curve.csv" --plot "$out/wnut-dev-curve.png"
python3 bin/mmbdeid crossval corpora_samples/health_boards.annotated.jsonl --folds 5 \
    -o "$out/sample-cv-curve.csv"
