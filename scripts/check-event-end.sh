#!/usr/bin/env bash
# Checks the organiser's day to its end from a phone (`mmjudge serve`, headless Chromium at 390×844), through the
# pages only: on a small one-round event, the head judge switches check-in on and off again on the set-up page,
# changes settings by their controls on the Judges page (one refused while the round runs, then confirmed with its
# box), pairs and starts round 1, records a result on a table's page, ends the round, and then finds the winner
# named on the dashboard, the home page, the winner's /me, the projector and the final standings print; raising
# Rounds opens the event again and the page says how. Each answer to a tap must be found inside the viewport; every
# page must fit 390 px; any page or console error fails the check. Screenshots go to $SHOTS when set.
#
# Usage: scripts/check-event-end.sh
#   Builds the event with the debug binary (the 16 bundled players, the bundled reference and pool, 8 tables'
#   libraries, rounds 1), adds a head judge, starts `mmjudge serve --bind 127.0.0.1:0`, and records seven of the
#   eight results with the command line while the round runs (the eighth is recorded on its table's page).
# Needs chromium (apt-get install -y chromium), node 20 and npm (see scripts/browser/setup.sh).
set -euo pipefail
check=check-event-end
. "$(dirname "$0")/browser/setup.sh"

# $work, $server, $server2 and their cleanup: see scripts/browser/setup.sh.
export MMJUDGE_DB=$work/event.db MMJUDGE_JUDGE=check-event-end
"$bin" event new "Check Event End" --seed 7 >/dev/null
for step in "player import $root/examples/players.csv" "cards import $root/examples/cards.csv" \
  "pool import $root/examples/pool.csv" "library build --tables 8" "event set rounds 1"; do
  # shellcheck disable=SC2086
  "$bin" $step >/dev/null
done
pin=$("$bin" --json judge add "Kim Head" --role head | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).pin))')

"$bin" --json serve --bind 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
base=$(address_of "$server" "$work/serve.out" "$work/serve.err")

BASE=$base JUDGE="Kim Head" PIN=$pin MMJUDGE="$bin" CHROMIUM=$browser SHOTS=${SHOTS:-} \
  node "$root/scripts/browser/check-event-end.mjs"
echo "check-event-end: done in $(($(date +%s) - started)) s"
