#!/usr/bin/env bash
# The expert level against hard and the ISMCTS baseline, measured with `tapete arena` (issue 19):
# 300 duplicate deals per pair in spades, cutthroat and cutthroat-official, scoring each deal's
# first hand (expert against hard twice: once with `--same-seeds`, the bots' own draws shared
# across the rotations, once without); then whole games (GAMES of them, default 80; bags carry
# from hand to hand there: add expert.lasting=1 to GAME_PARAMS to measure the valuation that
# plays for them), with both levels' searches cut to a quarter of their rollouts and half their
# bidding deals (GAME_PARAMS) to fit the time: with JOBS=2 about 40 to 55 minutes for the spades row and
# 20 for a Cutthroat one.
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
GAMES=${GAMES:-80}
GAME_PARAMS=${GAME_PARAMS:-hard.rollouts=600,hard.bid_samples=100,expert.rollouts=600,expert.bid_samples=100}
read -r -a TAPETE_CMD <<< "${TAPETE:-tapete}"

run() {  # name profile bots [more arena arguments]
    local name=$1 profile=$2 bots=$3
    shift 3
    local unit=(--hands "$DEALS")
    [ $# -gt 0 ] && unit=("$@")
    [ -s "$OUT/$name.json" ] && return 0
    echo "== ${TAPETE_CMD[*]} arena $profile --bots $bots ${unit[*]} --seed $SEED --jobs $JOBS" >&2
    nice -n 10 "${TAPETE_CMD[@]}" arena "$profile" --bots "$bots" "${unit[@]}" --seed "$SEED" --jobs "$JOBS" \
        --json --plot "$OUT/$name.svg" > "$OUT/$name.json.tmp"
    mv "$OUT/$name.json.tmp" "$OUT/$name.json"
}

# expert against hard with the bots' own luck cancelled too (`--same-seeds`: a seat's bot
# draws the same numbers in every rotation, so the two levels differ only where they choose
# differently; in the Cutthroat profiles, where expert plays as hard and bids as hard but
# for the nils its check refuses, the difference is that of those nils)
run spades-expert-hard-same     spades             expert,hard      --hands "$DEALS" --same-seeds
run cutthroat-expert-hard-same  cutthroat          expert,hard,hard --hands "$DEALS" --same-seeds
run official-expert-hard-same   cutthroat-official expert,hard,hard --hands "$DEALS" --same-seeds
run spades-expert-hard        spades             expert,hard
run cutthroat-expert-hard     cutthroat          expert,hard,hard
run official-expert-hard      cutthroat-official expert,hard,hard
run spades-expert-ismcts      spades             expert,ismcts
run cutthroat-expert-ismcts   cutthroat          expert,ismcts,ismcts
run official-expert-ismcts    cutthroat-official expert,ismcts,ismcts
run spades-expert-hard-games     spades             expert,hard      --games "$GAMES" --bot-params "$GAME_PARAMS"
run cutthroat-expert-hard-games  cutthroat          expert,hard,hard --games "$GAMES" --bot-params "$GAME_PARAMS"
run official-expert-hard-games   cutthroat-official expert,hard,hard --games "$GAMES" --bot-params "$GAME_PARAMS"

for f in "$OUT"/*.json; do
    echo "== $f"
    python -c 'import json,sys; r=json.load(open(sys.argv[1])); print(json.dumps({k: r[k] for k in r if k not in ("hands", "deals")}, indent=1)[:1500])' "$f"
done
