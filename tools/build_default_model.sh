#!/usr/bin/env bash
# Rebuild the bundled default model: the fictional hand-tagged sample plus the WNUT17 train
# and dev files (CC-BY 4.0, see README), default hyper-parameters, threshold 0.05.
# Usage: bash tools/build_default_model.sh [WNUT_DIR]   (default: ../shared/data/wnut17)
set -euo pipefail
cd "$(dirname "$0")/.."
wnut=${1:-../shared/data/wnut17}
python3 bin/mmbdeid train \
    corpora_samples/health_boards.annotated.jsonl \
    "$wnut/wnut17train.conll" "$wnut/emerging.dev.conll" \
    -o mmbdeid/models/default.mmbdeid
