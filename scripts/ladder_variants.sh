#!/usr/bin/env bash
# Normal against easy in each variant profile of issue 18, measured with `tapete arena`.
# Usage: scripts/ladder_variants.sh [OUT_DIR]   (default: ./ladder-variants); HANDS=300 by default.
# Each run writes OUT_DIR/<profile>.json (finished runs are skipped when re-run); the
# tables are printed at the end. One job: the machine is shared.
set -euo pipefail
OUT=${1:-ladder-variants}
mkdir -p "$OUT"
SEED=${SEED:-1}
HANDS=${HANDS:-300}

run() {  # profile bots
    local profile=$1 bots=$2
    [ -s "$OUT/$profile.json" ] && return 0
    echo "== tapete arena $profile --bots $bots --hands $HANDS --seed $SEED --jobs 1" >&2
    nice -n 10 tapete arena "$profile" --bots "$bots" --hands "$HANDS" --seed "$SEED" --jobs 1 \
        --json > "$OUT/$profile.json.tmp"
    mv "$OUT/$profile.json.tmp" "$OUT/$profile.json"
}

run spades-blind-nil normal,easy
run spades-jokers    normal,easy
run spades-deuces    normal,easy
run spades-suicide   normal,easy
run callbreak        normal,easy,easy,easy
run runfast-15       normal,easy,easy
run runfast-3s       normal,easy,easy

python - "$OUT" <<'PY'
import json, sys, pathlib
from tapete.arena import render_table
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    print(render_table(json.loads(p.read_text())))
    print()
PY
