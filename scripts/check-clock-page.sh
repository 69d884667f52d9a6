#!/usr/bin/env bash
# Renders the room projector page (`mmjudge clock --html FILE`) with the real binary on a small event, three
# times — early in the round, inside the final window, after time — and screenshots each in headless Chromium so
# a person can look at the PNGs. Table 2 has a 5-minute extension, so it shows with its own end time.
# Usage: scripts/check-clock-page.sh [OUT_DIR]   (default: a new temp dir; printed at the end)
# Needs: chromium (apt-get install -y chromium); sqlite3 to seat the round where `round pair` is not built yet.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
if ! command -v chromium >/dev/null; then
  echo "chromium not found: apt-get update && apt-get install -y chromium" >&2
  exit 1
fi
cargo build -q
bin="$PWD/target/debug/mmjudge"
export MMJUDGE_JUDGE="check-clock-page"

# seat_round DB: round 1 with Ana–Bo at table 1 and Cy–Di at table 2.
seat_round() {
  if MMJUDGE_DB="$1" "$bin" round pair >/dev/null 2>&1; then
    return
  fi
  if ! command -v sqlite3 >/dev/null; then
    echo "this mmjudge has no \`round pair\` and sqlite3 is missing: apt-get install -y sqlite3" >&2
    exit 1
  fi
  sqlite3 "$1" "INSERT INTO round (number, movement, paired_at) VALUES (1, 'mitchell', '2026-01-01T00:00:00Z');
    INSERT INTO match (round, table_no, a_player, b_player) VALUES (1, 1, 1, 2), (1, 2, 3, 4);"
}

for case in "early 20" "window 37" "over 52"; do
  set -- $case
  name=$1 minutes_in=$2
  db="$out/clock_$name.db" html="$out/clock_$name.html" png="$out/clock_$name.png"
  rm -f "$db" "$db-wal" "$db-shm" "$png"
  export MMJUDGE_DB="$db"
  # The event is made 90 minutes back: a round started before the event was made is refused.
  MMJUDGE_NOW="$(date -u -d "-90 min" +%Y-%m-%dT%H:%M:%SZ)" "$bin" event new "Spring Mental Magic Open" --rounds 3 --seed 7 >/dev/null
  MMJUDGE_NOW="$(date -u -d "-90 min" +%Y-%m-%dT%H:%M:%SZ)" "$bin" player add Ana Bo Cy Di >/dev/null
  seat_round "$db"
  "$bin" round start --at "$(date -u -d "-$minutes_in min" +%Y-%m-%dT%H:%M:%SZ)" >/dev/null
  "$bin" round extend 2 5 --reason "deck check" >/dev/null
  "$bin" clock --html "$html" >/dev/null
  if grep -Eq 'https?://|<link|src=|@import' "$html"; then
    echo "FAIL: $html refers to something outside the page" >&2
    exit 1
  fi
  profile=$(mktemp -d)
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
    --disable-sync --no-first-run --user-data-dir="$profile" --screenshot="$png" --window-size=1280,720 \
    "file://$html" >/dev/null 2>&1
  rm -rf "$profile"
  if [ ! -s "$png" ]; then
    echo "FAIL: no screenshot for $html" >&2
    exit 1
  fi
  echo "ok: $png (round started $minutes_in min ago)"
done
