#!/usr/bin/env bash
# Checks the live server (`mmjudge serve`) in headless Chromium at phone width (390 px), through its own pages:
# a judge logs in and records a result at the table page while a player's /me and /pairings update without a
# reload; two phones on the table device /table/N sign in with player codes, one declares cards with the
# page's completion, the other sees them (each delay is printed; their median must be under 500 ms), and the
# same template declared again by the opponent is refused on the page with the rule's reason (a late completion answer
# leaves the reason shown); the two players of a table self-report the same result on /me with their codes and
# call a judge, which a judge's dashboard shows live; on a second event, players check in on /me and a judge on the
# dashboard, then round 1 is paired without the one absent: the bye, the dropped player's page and time called
# show at phone width. Any page or
# console error, or an update that does not show live, fails the check. Screenshots at phone width go to $SHOTS
# when set.
#
# Usage: scripts/check-serve.sh
#   Builds a small event with the debug binary (the 16 bundled players, the bundled reference and pool, round 1
#   started), adds a head judge, starts `mmjudge serve --bind 127.0.0.1:0` and stops it at the end.
# Needs chromium (apt-get install -y chromium), node 20 and npm (playwright-core is installed into
# scripts/browser/node_modules with `npm ci` the first time; it drives the machine's Chromium, downloads none).
set -euo pipefail
check=check-serve
. "$(dirname "$0")/browser/setup.sh"

# $work, $server, $server2 and their cleanup: see scripts/browser/setup.sh.
export MMJUDGE_DB=$work/event.db MMJUDGE_JUDGE=check-serve
small_event "Check Serve"
pin=$("$bin" --json judge add "Kim Head" --role head | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).pin))')
"$bin" --json player codes >"$work/codes.json"

"$bin" --json serve --bind 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
base=$(address_of "$server" "$work/serve.out" "$work/serve.err")

# A second event for players arriving: check-in on, nothing paired yet (created two hours ago, so that the check can
# start its round 55 minutes back and find time called).
arrive=$work/arrive.db
two_hours_ago=$(node -e 'console.log(new Date(Date.now() - 2 * 3600e3).toISOString())')
MMJUDGE_DB=$arrive MMJUDGE_NOW=$two_hours_ago "$bin" event new "Check Arrivals" --seed 7 >/dev/null
for step in "player import $root/examples/players.csv" "cards import $root/examples/cards.csv" \
  "pool import $root/examples/pool.csv" "library build --tables 8" "event set check-in on"; do
  # shellcheck disable=SC2086
  MMJUDGE_DB=$arrive "$bin" $step >/dev/null
done
pin2=$(MMJUDGE_DB=$arrive "$bin" --json judge add "Kim Head" --role head | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).pin))')
MMJUDGE_DB=$arrive "$bin" --json player codes >"$work/codes2.json"
MMJUDGE_DB=$arrive "$bin" --json serve --bind 127.0.0.1:0 >"$work/serve2.out" 2>"$work/serve2.err" &
server2=$!
base2=$(address_of "$server2" "$work/serve2.out" "$work/serve2.err")

BASE=$base JUDGE="Kim Head" PIN=$pin CODES=$work/codes.json CHROMIUM=$browser SHOTS=${SHOTS:-} \
  BASE2=$base2 PIN2=$pin2 CODES2=$work/codes2.json DB2=$arrive MMJUDGE=$bin \
  node "$root/scripts/browser/check-serve.mjs"
echo "check-serve: done in $(($(date +%s) - started)) s"
