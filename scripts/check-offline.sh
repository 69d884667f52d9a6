#!/usr/bin/env bash
# Checks that a dropped Wi-Fi loses nothing, in headless Chromium at phone width (390 px): the table device
# /table/N, signed in, is taken offline (the browser's offline mode), its player declares two cards and taps
# the decision clock, the page shows what waits and since when it is offline, and back online each write is
# recorded once at the moment it was made; then the same with the server stopped (the page reloaded while it
# is down keeps its queue) and started again on the same address. See scripts/browser/check-offline.mjs.
#
# Usage: scripts/check-offline.sh
#   Builds a small event with the debug binary (the 16 bundled players, the bundled reference and pool, round 1
#   started); the browser check starts and stops `mmjudge serve` itself.
# Needs chromium (apt-get install -y chromium), node 20 and npm (playwright-core, installed into
# scripts/browser/node_modules with `npm ci` the first time).
set -euo pipefail
check=check-offline
. "$(dirname "$0")/browser/setup.sh"

# $work and its removal at the end: see scripts/browser/setup.sh.
export MMJUDGE_DB=$work/event.db MMJUDGE_JUDGE=check-offline
small_event "Check Offline"
"$bin" --json player codes >"$work/codes.json"
pin=$("$bin" --json judge add "Kim Head" --role head | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).pin))')

BIN=$bin WORK=$work JUDGE="Kim Head" PIN=$pin CODES=$work/codes.json CHROMIUM=$browser SHOTS=${SHOTS:-} \
  node "$root/scripts/browser/check-offline.mjs"
echo "check-offline: done in $(($(date +%s) - started)) s"
