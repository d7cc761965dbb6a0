#!/usr/bin/env bash
# The strength ladder of the Run Fast bots, measured with `tapete arena`.
# Usage: scripts/ladder_runfast.sh [OUT_DIR]   (default: ./ladder-results); runs niced on every core.
# Each run writes OUT_DIR/<name>.json and .svg (finished runs are skipped when re-run);
# the tables are printed at the end. HARD_PARAMS overrides hard's budget (e.g. samples=8).
set -euo pipefail
OUT=${1:-ladder-results}
mkdir -p "$OUT"
SEED=${SEED:-1}
HARD_PARAMS=${HARD_PARAMS:-}

run() {  # name profile bots hands [bot-params]
    local name=$1 profile=$2 bots=$3 hands=$4 params=${5:-}
    [ -s "$OUT/$name.json" ] && return 0
    echo "== tapete arena $profile --bots $bots --hands $hands --seed $SEED --json ${params:+--bot-params $params}" >&2
    nice -n 10 tapete arena "$profile" --bots "$bots" --hands "$hands" --seed "$SEED" \
        --json --quiet --plot "$OUT/$name.svg" ${params:+--bot-params "$params"} > "$OUT/$name.json.tmp"
    mv "$OUT/$name.json.tmp" "$OUT/$name.json"
}

run runfast-normal-easy   runfast normal,easy,easy     2000
run runfast-hard-normal   runfast hard,normal,normal   300  "${HARD_PARAMS:+$(echo "$HARD_PARAMS" | sed 's/\([^,]*\)/hard.\1/g')}"

python - "$OUT" <<'PY'
import json, sys, pathlib
from tapete.arena import render_table
for p in sorted(pathlib.Path(sys.argv[1]).glob("runfast-*.json")):
    print(render_table(json.loads(p.read_text())))
    print()
PY
