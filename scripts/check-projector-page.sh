#!/usr/bin/env bash
# Serves a small event with `mmjudge serve` and screenshots its live projector page (`/projector`) in headless
# Chromium in four moments: deck inspection, early in the round, inside the final window, after time (table 2
# has a 5-minute extension, table 3 a result), at the room's 1280x720 and at phone width, so a person can look at
# the PNGs. Fails when the page is missing its QR code or refers to anything outside the server.
# Usage: scripts/check-projector-page.sh [OUT_DIR]   (default: a new temp dir; printed at the end)
# Needs: chromium (apt-get install -y chromium), sqlite3 (to seat a round without libraries), curl.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
for tool in chromium sqlite3 curl; do
  command -v "$tool" >/dev/null || { echo "$tool not found: apt-get update && apt-get install -y $tool" >&2; exit 1; }
done
cargo build -q
bin="$PWD/target/debug/mmjudge"
export MMJUDGE_JUDGE="check-projector-page"
ago() { date -u -d "-$1 min" +%Y-%m-%dT%H:%M:%SZ; }

port=18300
for case in "inspection 2 3" "early 20 0" "window 40 0" "over 52 0"; do
  set -- $case
  name=$1 minutes_in=$2 inspection=$3
  port=$((port + 1))
  db="$out/projector_$name.db"
  rm -f "$db" "$db-wal" "$db-shm" "$out/projector_$name"*.png
  export MMJUDGE_DB="$db"
  MMJUDGE_NOW="$(ago 90)" "$bin" event new "Spring Mental Magic Open" --rounds 3 --seed 7 >/dev/null
  "$bin" player add "Ana Álvarez" "Bo Berg" "Cy Chen" "Di Dahl" "Ed Evans" "Flo Fox" >/dev/null
  sqlite3 "$db" "INSERT INTO round (number, movement, paired_at) VALUES (1, 'mitchell', '$(ago 80)');
    INSERT INTO match (round, table_no, a_player, b_player) VALUES (1, 1, 1, 2), (1, 2, 3, 4), (1, 3, 5, 6);"
  "$bin" event set inspection-minutes "$inspection" >/dev/null
  "$bin" round start --at "$(ago "$minutes_in")" >/dev/null
  if [ "$inspection" = 0 ]; then
    "$bin" round extend 2 5 --reason "deck check" >/dev/null
    "$bin" result 3 flo --by concession >/dev/null
  fi
  "$bin" serve --bind "127.0.0.1:$port" >/dev/null 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$port/api/time" >/dev/null && break; sleep 0.1; done
  page="$(curl -sf "http://127.0.0.1:$port/projector")"
  if ! grep -q "<svg" <<<"$page" || grep -Eq 'https://|src="http|href="http' <<<"$page"; then
    kill "$server"; echo "FAIL: /projector ($name) has no QR code or refers outside the server" >&2; exit 1
  fi
  for size in 1280,720 390,844; do
    png="$out/projector_${name}_${size/,/x}.png"
    profile=$(mktemp -d)
    timeout 60 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
      --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile" --timeout=4000 \
      --screenshot="$png" --window-size="$size" "http://127.0.0.1:$port/projector" >/dev/null 2>&1 || true
    rm -rf "$profile"
    [ -s "$png" ] || { kill "$server"; echo "FAIL: no screenshot $png" >&2; exit 1; }
    echo "ok: $png"
  done
  kill "$server"
done
echo "screenshots in $out"
