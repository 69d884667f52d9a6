#!/usr/bin/env bash
# Checks the head judge's event day from a phone (`mmjudge serve`, headless Chromium at 390 px), through the pages
# only: on a small event with check-in on and round 1 not yet paired (one player never came), the head judge logs
# in, pairs round 1 with Pair those present, starts it, adds a late player and drops one on the Players page, opens
# the players' codes from Prints (and every other print), records a result on a table's page, has a challenge on
# that finished match refused beside its form, and ends the round with tables still playing: a table's page then
# says time was called at the round's end. Every page must fit 390 px (no sideways scroll); any page or console
# error fails the check. Screenshots at phone width go to $SHOTS when set.
#
# Usage: scripts/check-headjudge.sh
#   Builds the event with the debug binary (the 16 bundled players, the bundled reference and pool, 8 tables'
#   libraries, check-in on, 15 players checked in), adds a head judge, starts `mmjudge serve --bind 127.0.0.1:0`
#   and stops it at the end.
# Needs chromium (apt-get install -y chromium), node 20 and npm (see scripts/browser/setup.sh).
set -euo pipefail
check=check-headjudge
. "$(dirname "$0")/browser/setup.sh"

# $work, $server, $server2 and their cleanup: see scripts/browser/setup.sh.
export MMJUDGE_DB=$work/event.db MMJUDGE_JUDGE=check-headjudge
"$bin" event new "Check Head Judge" --seed 7 >/dev/null
for step in "player import $root/examples/players.csv" "cards import $root/examples/cards.csv" \
  "pool import $root/examples/pool.csv" "library build --tables 8" "event set check-in on"; do
  # shellcheck disable=SC2086
  "$bin" $step >/dev/null
done
# Every player but the last of the list checks in.
"$bin" --json player list | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const d=JSON.parse(s);const p=(d.players||d).map(x=>x.name);p.slice(0,-1).forEach(n=>console.log(n))})' >"$work/present"
while IFS= read -r name; do "$bin" player check-in "$name" >/dev/null; done <"$work/present"
absent=$("$bin" --json player list | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const d=JSON.parse(s);const p=(d.players||d).map(x=>x.name);console.log(p[p.length-1])})')
pin=$("$bin" --json judge add "Kim Head" --role head | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).pin))')

"$bin" --json serve --bind 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
base=$(address_of "$server" "$work/serve.out" "$work/serve.err")

BASE=$base JUDGE="Kim Head" PIN=$pin ABSENT=$absent CHROMIUM=$browser SHOTS=${SHOTS:-} \
  node "$root/scripts/browser/check-headjudge.mjs"
echo "check-headjudge: done in $(($(date +%s) - started)) s"
