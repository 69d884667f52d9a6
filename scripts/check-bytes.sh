#!/usr/bin/env bash
# Counts, in headless Chromium, the bytes a phone receives for one result at a size where it matters (a round of
# 600 players, 300 tables): phones on /pairings, /me and the projector listen live while results are recorded
# with the command line; each must show a result within a second for under 2 KB on the wire (live event and
# fetched answers, headers and framing included, from Chromium's network events). Also checks /pairings's
# first load stays under 60 KB.
#
# Usage: scripts/check-bytes.sh
# Needs what scripts/check-serve.sh needs (chromium, node 20 and npm; playwright-core from scripts/browser).
set -euo pipefail
check=check-bytes
. "$(dirname "$0")/browser/setup.sh"
# $work, $server, $server2 and their cleanup: see scripts/browser/setup.sh.
export MMJUDGE_DB=$work/event.db MMJUDGE_JUDGE=check-bytes
"$bin" demo --players 600 --rounds 1 --out "$work/demo" >/dev/null
"$bin" event set rounds 2 >/dev/null
"$bin" round pair >/dev/null
"$bin" round start >/dev/null
"$bin" --json serve --bind 127.0.0.1:0 --quiet >"$work/serve.out" 2>"$work/serve.err" &
server=$!
base=$(address_of "$server" "$work/serve.out" "$work/serve.err")
BASE=$base BIN=$bin CHROMIUM=$browser node "$root/scripts/browser/check-bytes.mjs"
echo "check-bytes: done in $(($(date +%s) - started)) s"
