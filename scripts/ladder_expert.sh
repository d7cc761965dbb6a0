#!/usr/bin/env bash
# The expert level against hard and the ISMCTS baseline, measured with `tapete arena` (issue 19):
# 300 duplicate deals per pair in spades, cutthroat and cutthroat-official.
# Usage: scripts/ladder_expert.sh [OUT_DIR]   (default: ./ladder-expert); JOBS=1 leaves cores free.
# Install the compiled engine first (`pip install .` in a copy, or a wheel): the solver is
# about twelve times faster compiled. TAPETE names the command (default `tapete`), e.g.
# TAPETE="/venv/bin/python -m tapete" for a compiled install in a venv. Each run writes
# OUT_DIR/<name>.json and .svg; finished runs are skipped when re-run.
set -euo pipefail
OUT=${1:-ladder-expert}
mkdir -p "$OUT"
SEED=${SEED:-1}
DEALS=${DEALS:-300}
JOBS=${JOBS:-1}
read -r -a TAPETE_CMD <<< "${TAPETE:-tapete}"

run() {  # name profile bots
    local name=$1 profile=$2 bots=$3
    [ -s "$OUT/$name.json" ] && return 0
    echo "== ${TAPETE_CMD[*]} arena $profile --bots $bots --hands $DEALS --seed $SEED --jobs $JOBS" >&2
    nice -n 10 "${TAPETE_CMD[@]}" arena "$profile" --bots "$bots" --hands "$DEALS" --seed "$SEED" --jobs "$JOBS" \
        --json --plot "$OUT/$name.svg" > "$OUT/$name.json.tmp"
    mv "$OUT/$name.json.tmp" "$OUT/$name.json"
}

run spades-expert-hard        spades             expert,hard
run cutthroat-expert-hard     cutthroat          expert,hard,hard
run official-expert-hard      cutthroat-official expert,hard,hard
run spades-expert-ismcts      spades             expert,ismcts
run cutthroat-expert-ismcts   cutthroat          expert,ismcts,ismcts
run official-expert-ismcts    cutthroat-official expert,ismcts,ismcts

for f in "$OUT"/*.json; do
    echo "== $f"
    python -c 'import json,sys; r=json.load(open(sys.argv[1])); print(json.dumps({k: r[k] for k in r if k not in ("hands", "deals")}, indent=1)[:1500])' "$f"
done
