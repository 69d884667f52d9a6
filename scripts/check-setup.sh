#!/usr/bin/env bash
# Checks that an event is set up from nothing in the browser, without a command line, in headless Chromium at
# phone width (390 px): `mmjudge serve --new` on a missing file, its one-time /setup link creates the event and
# its head judge, then the head judge's set-up page (/judge/setup) uploads the bundled cards, pool and players
# (a progress bar, then the job's outcome beside each form), builds the libraries, adds a floor judge (the PIN
# shown once) and pairs round 1; a newcomer's mistakes on the way (a wrong link, an empty file, a file for another
# step, a step too early, libraries for too few tables, a judge added twice, a reload mid-job, Back) are each
# answered beside their form in the page's words. Any page or console error, or an unexpected refusal, fails the
# check. Screenshots at phone width go to $SHOTS when set.
#
# Usage: scripts/check-setup.sh
# Needs chromium (apt-get install -y chromium), node 20 and npm (playwright-core is installed into
# scripts/browser/node_modules with `npm ci` the first time; it drives the machine's Chromium, downloads none).
set -euo pipefail
check=check-setup
. "$(dirname "$0")/browser/setup.sh"

# $work, $server, $server2 and their cleanup: see scripts/browser/setup.sh.
export MMJUDGE_DB=$work/event.db

"$bin" serve --new --bind 127.0.0.1:0 >"$work/serve.out" 2>"$work/serve.err" &
server=$!
link=
for _ in $(seq 100); do
  link=$(grep -o 'http://127\.0\.0\.1:[0-9]*/setup#token=[0-9a-f]*' "$work/serve.out" | head -n 1 || true)
  [ -n "$link" ] && break
  if ! kill -0 "$server" 2>/dev/null; then
    echo "$check: the server did not start: $(cat "$work/serve.err")" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$link" ]; then
  echo "$check: the server printed no set-up link within 10 s" >&2
  exit 1
fi

LINK=$link EXAMPLES=$root/examples CHROMIUM=$browser SHOTS=${SHOTS:-} node "$root/scripts/browser/check-setup.mjs"
test -s "$MMJUDGE_DB" || { echo "$check: no event file was made" >&2; exit 1; }
echo "check-setup: done in $(($(date +%s) - started)) s"
