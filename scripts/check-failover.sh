#!/usr/bin/env bash
# Checks that phones follow the event to the second laptop, in headless Chromium at phone width (390 px): a
# primary and its standby (`serve --standby-of`) on loopback; the table device /table/1 and a player's page /me
# open on the primary, and a judge's table page; the primary is killed (kill -9); a card declared, a judge called
# and a judge's ruling then wait on the pages, which say the first laptop is not answering; the standby is promoted
# (`mmjudge standby promote`); the players' pages replay what waits there, each write recorded once (checked with
# `mmjudge --db STANDBY.db`), and move there; the judge's page keeps its ruling and says to log in again there.
# See scripts/browser/check-failover.mjs.
#
# Usage: scripts/check-failover.sh
#   Builds a small event with the debug binary (the 16 bundled players, the bundled reference and pool, round 1
#   started); the browser check starts both servers itself, with MMJUDGE_PRIMARY_TIMEOUT_MS=1500 (the pages ask
#   the standby after 1.5 s without the primary rather than 10 s).
# Needs chromium (apt-get install -y chromium), node 20 and npm (playwright-core, installed into
# scripts/browser/node_modules with `npm ci` the first time).
set -euo pipefail
check=check-failover
. "$(dirname "$0")/browser/setup.sh"

# $work comes from scripts/browser/setup.sh; KEEP=1 keeps it for a look afterwards.
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
export MMJUDGE_DB=$work/primary.db MMJUDGE_JUDGE=check-failover MMJUDGE_PRIMARY_TIMEOUT_MS=1500
small_event "Check Failover"
"$bin" --json player codes >"$work/codes.json"
pin=$("$bin" --json judge add "Kim Head" --role head | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).pin))')
key=$("$bin" --json standby key | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).key))')

BIN=$bin WORK=$work KEY=$key JUDGE="Kim Head" PIN=$pin CODES=$work/codes.json CHROMIUM=$browser SHOTS=${SHOTS:-} \
  node "$root/scripts/browser/check-failover.mjs"
echo "check-failover: done in $(($(date +%s) - started)) s"
