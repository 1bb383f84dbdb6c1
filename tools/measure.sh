#!/usr/bin/env bash
# Reproduce the accuracy figures in docs/accuracy.md (issue 10's protocol).
#   1. WNUT17: train on wnut17train.conll + BTC train, sweep on emerging.dev.conll.
#   2. BTC: train on WNUT17 train + dev + BTC train, sweep on btc.dev.conll.
#   3. 5-fold cross-validation (grouped by thread) on the fictional hand-tagged sample.
# CoNLL tokens are scored as typed text (see docs/accuracy.md).
# Usage: bash tools/measure.sh [WNUT_DIR] [BTC_DIR] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
wnut=${1:-../shared/data/wnut17}
btc=${2:-../shared/data/btc}
out=${3:-out/measure}
mkdir -p "$out"
python3 bin/mmbdeid train "$wnut/wnut17train.conll" "$btc/btc.train.conll" \
    -o "$out/wnut-btc-train.mmbdeid"
# --chain model: the model-chain tables of accuracy.md (sweep measures everything scrub
# removes by default since issue 31)
python3 bin/mmbdeid sweep "$wnut/emerging.dev.conll" --model "$out/wnut-btc-train.mmbdeid" --chain model \
    -o "$out/wnut-dev-curve.csv" --plot "$out/wnut-dev-curve.png"
python3 bin/mmbdeid train "$wnut/wnut17train.conll" "$wnut/emerging.dev.conll" \
    "$btc/btc.train.conll" -o "$out/wnut-all-btc-train.mmbdeid"
python3 bin/mmbdeid sweep "$btc/btc.dev.conll" --model "$out/wnut-all-btc-train.mmbdeid" --chain model \
    -o "$out/btc-dev-curve.csv"
# everything scrub removes (sweep's default): the rows of accuracy.md's issue-31 section
python3 bin/mmbdeid sweep "$btc/btc.dev.conll" --model "$out/wnut-all-btc-train.mmbdeid" \
    -o "$out/btc-dev-scrub-curve.csv"
python3 bin/mmbdeid sweep "$wnut/emerging.dev.conll" --model "$out/wnut-btc-train.mmbdeid" \
    -o "$out/wnut-dev-scrub-curve.csv"
python3 bin/mmbdeid crossval corpora_samples/health_boards.annotated.jsonl --folds 5 \
    -o "$out/sample-cv-curve.csv"
