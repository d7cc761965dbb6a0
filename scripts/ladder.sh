#!/usr/bin/env bash
# The strength ladder of the Spades-family bots, measured with `tapete arena`.
# Usage: scripts/ladder.sh [OUT_DIR]   (default: ./ladder-results); runs niced on every core.
# Each run writes OUT_DIR/<name>.json and .svg (finished runs are skipped when re-run);
# the tables are printed at the end.
set -euo pipefail
OUT=${1:-ladder-results}
mkdir -p "$OUT"
SEED=${SEED:-1}
IS_DEALS=${IS_DEALS:-100}   # hard vs ismcts in spades and cutthroat-official
CT_IS_DEALS=${CT_IS_DEALS:-300}   # hard vs ismcts in cutthroat (the closest pair: more deals to separate them)
HN_DEALS=${HN_DEALS:-300}   # hard vs normal

run() {  # name profile bots hands
    local name=$1 profile=$2 bots=$3 hands=$4
    [ -s "$OUT/$name.json" ] && return 0
    echo "== tapete arena $profile --bots $bots --hands $hands --seed $SEED" >&2
    nice -n 10 tapete arena "$profile" --bots "$bots" --hands "$hands" --seed "$SEED" \
        --json --plot "$OUT/$name.svg" > "$OUT/$name.json.tmp"
    mv "$OUT/$name.json.tmp" "$OUT/$name.json"
}

# hard against the plain ISMCTS baseline first (the slowest and the closest), then hard
# against normal, then normal against easy (both cheap; unchanged by hard's search).
run spades-hard-ismcts            spades             hard,ismcts $IS_DEALS
run cutthroat-hard-ismcts         cutthroat          hard,ismcts,ismcts $CT_IS_DEALS
run official-hard-ismcts          cutthroat-official hard,ismcts,ismcts $IS_DEALS
run spades-hard-normal            spades             hard,normal $HN_DEALS
run cutthroat-hard-normal         cutthroat          hard,normal,normal $HN_DEALS
run official-hard-normal          cutthroat-official hard,normal,normal $HN_DEALS
run spades-normal-easy            spades             normal,easy          2000
run cutthroat-normal-easy         cutthroat          normal,easy,easy     2000
run official-normal-easy          cutthroat-official normal,easy,easy     2000

python - "$OUT" <<'PY'
import json, sys, pathlib
from tapete.arena import render_table
for p in sorted(pathlib.Path(sys.argv[1]).glob("*.json")):
    print(render_table(json.loads(p.read_text())))
    print()
PY
