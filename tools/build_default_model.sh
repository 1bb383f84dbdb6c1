#!/usr/bin/env bash
# Rebuild the bundled default model: the fictional hand-tagged sample plus the WNUT17 train
# and dev files and the Broad Twitter Corpus train and dev files (all CC-BY 4.0, see
# docs/accuracy.md), default hyper-parameters (one stage), threshold 0.05.
# Usage: bash tools/build_default_model.sh [WNUT_DIR] [BTC_DIR]
#        (defaults: ../shared/data/wnut17 and ../shared/data/btc)
set -euo pipefail
cd "$(dirname "$0")/.."
wnut=${1:-../shared/data/wnut17}
btc=${2:-../shared/data/btc}
python3 bin/mmbdeid train \
    corpora_samples/health_boards.annotated.jsonl \
    "$wnut/wnut17train.conll" "$wnut/emerging.dev.conll" \
    "$btc/btc.train.conll" "$btc/btc.dev.conll" \
    -o mmbdeid/bundled/default.mmbdeid
# train writes models private (0600: a model holds names from its training posts); this one
# is trained on public corpora and the fictional sample only, and ships readable by all.
chmod 0644 mmbdeid/bundled/default.mmbdeid
