#!/bin/sh
# Profile the tapete server under the server_cpu.py load (every seat a scripted client) with py-spy.
# Writes a flame graph and the collapsed stacks (one line per stack, for grep and sort).
#   sh benchmarks/profile_server.sh [sqlite|postgresql] [OUT_DIR]
# Summarise the hottest frames of the collapsed stacks with:
#   python benchmarks/profile_server_top.py OUT_DIR/server.txt
set -eu
db="${1:-sqlite}"
out="${2:-/tmp/tapete-profile}"
here="$(dirname "$0")"
mkdir -p "$out"
nice -n 10 python "$here/server_cpu.py" --db "$db" --tables 20 --seconds 10 --rounds 1 \
    --py-spy "$out/server.svg" --py-spy-format flamegraph
nice -n 10 python "$here/server_cpu.py" --db "$db" --tables 20 --seconds 10 --rounds 1 \
    --py-spy "$out/server.txt" --py-spy-format raw
echo "flame graph: $out/server.svg  collapsed stacks: $out/server.txt"
