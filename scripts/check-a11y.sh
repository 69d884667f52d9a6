#!/usr/bin/env bash
# Runs axe-core (pinned in scripts/browser/package.json) in headless Chromium over every page `mmjudge serve`
# serves (a player's, a floor judge's and a head judge's, the projector, the set-up page of `serve --new`) and
# over every page of the event's site, at 390 px and at 1280 px, with the pages' CSP bypassed. Any serious or
# critical violation fails the check, printed with its page, width, rule and elements.
#
# Usage: scripts/check-a11y.sh
#   Builds a small event with the debug binary (the 16 bundled players, the bundled reference and pool, round 1
#   started, notes, a challenge, a ruling, a penalty, timed decisions and a result at table 1), adds a head judge and a floor judge, writes the site
#   (`mmjudge site DIR --judges`), starts `mmjudge serve --bind 127.0.0.1:0` and `mmjudge serve --new` on an
#   empty file, and stops both at the end.
# Needs chromium (apt-get install -y chromium), node 20 and npm (playwright-core and axe-core are installed into
# scripts/browser/node_modules with `npm ci` the first time).
set -euo pipefail
check=check-a11y
. "$(dirname "$0")/browser/setup.sh"

# $work, $server, $server2 and their cleanup: see scripts/browser/setup.sh.
export MMJUDGE_DB=$work/event.db MMJUDGE_JUDGE=check-a11y
small_event "Check Access"
pin_of() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).pin))'; }
head_pin=$("$bin" --json judge add "Kim Head" --role head | pin_of)
floor_pin=$("$bin" --json judge add "Lee Floor" --role floor | pin_of)
player=$("$bin" --json pairings | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);const m=(j.matches||j.tables||[])[0]||{};console.log((m.a&&m.a.name)||"")})')
# Records at table 1 (notes, a challenge, a ruling, a penalty: the site's judging page lists them), then its result.
"$bin" note 1 "$player" B1 "Demonic Tutor" >/dev/null
"$bin" note 1 "$player" R "Burst Lightning" >/dev/null
"$bin" challenge 1 --by "$player" --about "B1 Demonic Tutor, declared as a much longer name than fits a phone's width" --ruling denied >/dev/null
"$bin" ruling 1 "Shuffle and cut again, as the tournament rules say for a library handled face up" >/dev/null
"$bin" penalty "$player" slow-play >/dev/null
# Decisions timed at table 1: the slow-play page and the table's page draw them.
for _ in 1 2 3; do "$bin" clock 1 --start "$player" >/dev/null; "$bin" clock 1 --stop >/dev/null; done
"$bin" result 1 draw --by intentional-draw >/dev/null
"$bin" site "$work/site" --judges >/dev/null
# The written pages that draw (#47), checked with the site's files.
"$bin" decisions --html "$work/site/slow-play.html" >/dev/null
"$bin" report libraries --html "$work/site/library-report.html" >/dev/null
"$bin" pool check --html "$work/site/pool-check.html" >/dev/null
# A finished event's final standings with their points by round, from a small demo of its own.
MMJUDGE_DB=$work/demo.db "$bin" demo --players 8 --rounds 2 --out "$work/demo" >/dev/null
cp "$work/demo/site/round-2-standings.html" "$work/site/demo-final-standings.html"

"$bin" --json serve --bind 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
base=$(address_of "$server" "$work/serve.out" "$work/serve.err")
MMJUDGE_DB=$work/new.db "$bin" --json serve --new --bind 127.0.0.1:0 >"$work/new.out" 2>"$work/new.err" &
server2=$!
base2=$(address_of "$server2" "$work/new.out" "$work/new.err")

BASE=$base NEW=$base2 HEAD="Kim Head" HEAD_PIN=$head_pin FLOOR="Lee Floor" FLOOR_PIN=$floor_pin \
  PLAYER=$player TABLE=2 FINISHED=1 SITE=$work/site CHROMIUM=$browser \
  node "$root/scripts/browser/check-a11y.mjs"
echo "check-a11y: done in $(($(date +%s) - started)) s"
