#!/usr/bin/env bash
# Rebuild the bundled default model: the fictional hand-tagged sample plus the WNUT17 train
# and dev files and the Broad Twitter Corpus train and dev files (all CC-BY 4.0, see
# docs/accuracy.md), default hyper-parameters (one stage), threshold 0.05. It trains on the
# copies shipped in mmbdeid/bundled/base_corpora/ (what `train --base default` adds to a
# user's posts), after checking that they are the files of WNUT_DIR and BTC_DIR unchanged.
# Usage: bash tools/build_default_model.sh [WNUT_DIR] [BTC_DIR]
#        (defaults: ../shared/data/wnut17 and ../shared/data/btc)
set -euo pipefail
cd "$(dirname "$0")/.."
wnut=${1:-../shared/data/wnut17}
btc=${2:-../shared/data/btc}
base=mmbdeid/bundled/base_corpora
for original in corpora_samples/health_boards.annotated.jsonl \
        "$wnut/wnut17train.conll" "$wnut/emerging.dev.conll" \
        "$btc/btc.train.conll" "$btc/btc.dev.conll"; do
    if [ -e "$original" ] && ! cmp -s "$original" <(gzip -dc "$base/$(basename "$original").gz"); then
        echo "build_default_model.sh: $base/$(basename "$original").gz is not $original" \
             "(refresh it: gzip -9 -n -c $original > $base/$(basename "$original").gz)" >&2
        exit 2
    fi
done
python3 bin/mmbdeid train \
    "$base/health_boards.annotated.jsonl.gz" \
    "$base/wnut17train.conll.gz" "$base/emerging.dev.conll.gz" \
    "$base/btc.train.conll.gz" "$base/btc.dev.conll.gz" \
    -o mmbdeid/bundled/default.mmbdeid
# train writes models private (0600: a model holds names from its training posts); this one
# is trained on public corpora and the fictional sample only, and ships readable by all.
chmod 0644 mmbdeid/bundled/default.mmbdeid
