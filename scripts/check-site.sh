#!/usr/bin/env bash
# Renders every page of an event's site in one headless Chromium (scripts/browser/check-site.mjs) and fails on
# any error:
#   - a link or stylesheet pointing at a file the site does not have, or outside the site;
#   - a page Chromium cannot load, a console line, an uncaught script error (only the clock page has a script),
#     a file it asks for that is not there, or a page that draws nothing;
#   - a player's name shown as HTML instead of text.
# Then it prints every printable page to PDF (the site's pages but the clock, and the stand-alone prints:
# pairings --html, the wall sheet, a note sheet, the pool check, the deck sheets) and checks each PDF:
#   - the event's name and date on every printed page (each sheet repeats its print head);
#   - the deck sheets one page per library;
#   - the result slips with their challenge boxes (two per player) and the turn-at-time box.
# Screenshots (desktop and phone width), the PDFs and a PNG of the first page of each PDF are kept in $SHOTS
# when set.
#
# Usage: scripts/check-site.sh [EVENT.db]
#   With no event file, builds a small event: the 16 bundled players plus one named <script>alert(1)</script>,
#   libraries built from the bundled pool, three rounds, a bye, template notes, a challenge, a ruling and a
#   penalty, round 3 still playing with a player who stays at table 1 (libraries carried to them).
# Needs chromium (apt-get install -y chromium), node 20 and npm (playwright-core from scripts/browser), pdfinfo and pdftotext (poppler-utils: installed here with
# apt-get when missing and running as root) and, to build the small event, python3.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${MMJUDGE:-$root/target/debug/mmjudge}
if [ ! -x "$bin" ]; then (cd "$root" && cargo build --quiet); fi
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$browser" ]; then
  echo "check-site: no Chromium found: apt-get install -y chromium" >&2
  exit 1
fi
if ! command -v pdftotext >/dev/null || ! command -v pdfinfo >/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "check-site: installing poppler-utils (pdfinfo, pdftotext) with apt-get" >&2
    apt-get install -y poppler-utils >/dev/null 2>&1 || { apt-get update >/dev/null 2>&1 && apt-get install -y poppler-utils >/dev/null 2>&1; } || true
  fi
  if ! command -v pdftotext >/dev/null || ! command -v pdfinfo >/dev/null; then
    echo "check-site: no pdftotext/pdfinfo found: apt-get install -y poppler-utils" >&2
    exit 1
  fi
fi
if [ ! -d "$root/scripts/browser/node_modules/playwright-core" ]; then
  command -v npm >/dev/null || { echo "check-site: node and npm are needed (node 20 or later): apt-get install -y nodejs npm" >&2; exit 1; }
  (cd "$root/scripts/browser" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export MMJUDGE_JUDGE=check-site MMJUDGE_NOW=2026-05-01T12:00:00Z
xss='<script>alert(1)</script>'

build_event() {
  local db=$1
  MMJUDGE_DB=$db "$bin" event new "Check <Site> & Co" --seed 7 >/dev/null
  MMJUDGE_DB=$db "$bin" player import "$root/examples/players.csv" >/dev/null
  MMJUDGE_DB=$db "$bin" player add "$xss" >/dev/null
  MMJUDGE_DB=$db "$bin" cards import "$root/examples/cards.csv" >/dev/null
  MMJUDGE_DB=$db "$bin" pool import "$root/examples/pool.csv" >/dev/null
  MMJUDGE_DB=$db "$bin" library build --tables 8 >/dev/null
  python3 - "$db" <<'PY'
import random, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rng = random.Random(7)
players = [r[0] for r in db.execute("SELECT id FROM player ORDER BY id")]
lib = {(t, s): i for i, t, s in db.execute("SELECT id, table_no, seat FROM library")}
for rnd in (1, 2, 3):
    db.execute("INSERT INTO round (number, movement, paired_at, started_at) VALUES (?, 'swiss', ?, ?)",
               (rnd, f"2026-05-01T{8 + rnd:02}:00:00.000Z", f"2026-05-01T{8 + rnd:02}:05:00.000Z"))
    order = players[:]
    rng.shuffle(order)
    if len(order) % 2:
        db.execute("INSERT INTO match (round, a_player, result, reason) VALUES (?, ?, 'A', 'bye')", (rnd, order.pop()))
    for t in range(1, len(order) // 2 + 1):
        a, b = order[2 * t - 2], order[2 * t - 1]
        playing = rnd == 3 and t % 3 == 0
        result = None if playing else rng.choice(["A", "A", "B", "B", "draw"])
        life = (None, None) if playing else (rng.randint(0, 20), rng.randint(0, 20))
        db.execute("INSERT INTO match (round, table_no, a_player, b_player, a_library, b_library, result, reason, life_a, life_b)"
                   " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (rnd, t, a, b, lib[(t, "A")], lib[(t, "B")], result, None if playing else "life", *life))
# Round 3: the player at table 3's seat A stays at table 1 (a player who cannot move): their game is played at
# table 1 with libraries 3A and 3B carried there, and table 1's game at table 3 with 1A and 1B.
stays, = db.execute("SELECT a_player FROM match WHERE round = 3 AND table_no = 3").fetchone()
db.execute("UPDATE player SET stays_at = 1 WHERE id = ?", (stays,))
for was, now in ((1, 999), (3, 1), (999, 3)):
    db.execute("UPDATE match SET table_no = ? WHERE round = 3 AND table_no = ?", (now, was))
m, a, b = db.execute("SELECT id, a_player, b_player FROM match WHERE round = 1 AND table_no = 1").fetchone()
db.execute("INSERT INTO challenge (match_id, by_player, about, ruling, loser, judge, at) VALUES (?, ?, ?, 'upheld', ?, 'Kim', '2026-05-01T09:20:00.000Z')",
           (m, a, "B1 as <b>Demonic Tutor</b>", b))
notes = [("{1}{B}", "Demonic Tutor"), ("{R}", "Shock"), ("{1}{U}", None), ("{W}", "Swords to Plowshares")]
for i, (cost, card) in enumerate(notes):
    db.execute("INSERT INTO template_note (match_id, player_id, cost, card_name, at) VALUES (?, ?, ?, ?, ?)",
               (m, a if i % 2 == 0 else b, cost, card, f"2026-05-01T09:{10 + i:02}:00.000Z"))
db.execute("INSERT INTO ruling (match_id, text, judge, at) VALUES (?, 'Shuffle & cut again', 'Kim', '2026-05-01T09:30:00.000Z')", (m,))
db.execute("INSERT INTO penalty (player_id, match_id, infraction, penalty, judge, at) VALUES (?, ?, 'slow play', 'warning', 'Kim', '2026-05-01T09:31:00.000Z')", (b, m))
db.commit()
PY
  MMJUDGE_DB=$db "$bin" player drop "$("$bin" --db "$db" --json player list | python3 -c 'import json,sys; print(json.load(sys.stdin)["players"][0]["name"])')" >/dev/null
}

db=${1:-}
if [ -z "$db" ]; then
  db=$work/event.db
  build_event "$db"
fi
site=$work/site
MMJUDGE_DB=$db "$bin" site "$site" --judges >/dev/null

failures=0
fail() { echo "check-site: $*" >&2; failures=$((failures + 1)); }

pages=("$site"/*.html)
for page in "${pages[@]}"; do
  name=$(basename "$page")
  # Every link and stylesheet points at a file of the site.
  while IFS= read -r target; do
    case $target in
      *://*|//*) fail "$name refers outside the site: $target" ;;
      *) [ -f "$site/$target" ] || fail "$name links $target, which the site does not have" ;;
    esac
  done < <(grep -o -E '(href|src)="[^"]*"' "$page" | sed -E 's/^(href|src)="//; s/"$//')
  if grep -q -F "$xss" "$page"; then fail "$name shows a player's name as HTML"; fi
  if [ "$name" != clock.html ] && grep -q -i '<script' "$page"; then fail "$name has a script"; fi
done

# ---- Prints: the stand-alone ones beside the site's pages.
prints=$work/prints
mkdir -p "$prints"
event_json=$(MMJUDGE_DB=$db "$bin" --json event show)
event_name=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["name"])' "$event_json")
event_date=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["settings"]["date"])' "$event_json")
MMJUDGE_DB=$db "$bin" pairings --html "$prints/pairings.html" >/dev/null
MMJUDGE_DB=$db "$bin" pairings --html "$prints/wall.html" --wall >/dev/null
MMJUDGE_DB=$db "$bin" pairings --html "$prints/wall-last.html" --wall --sort last >/dev/null
MMJUDGE_DB=$db "$bin" notes 1 --round 1 --html "$prints/notes-1.html" >/dev/null
MMJUDGE_DB=$db "$bin" pool check --html "$prints/pool-check.html" >/dev/null
MMJUDGE_DB=$db "$bin" library sheets "$prints/sheets" >/dev/null
libraries=$(find "$prints/sheets" -name 'library-*.html' | wc -l)

# One Chromium loads every page (no error, something drawn), takes the screenshots at desktop and phone width and
# prints every printable page to PDF (scripts/browser/check-site.mjs).
shots=${SHOTS:-$work/shots}
mkdir -p "$shots"
SITE=$site PRINTS=$prints SHOTS=$shots CHROMIUM=$browser node "$root/scripts/browser/check-site.mjs" ||
  fail "Chromium found problems in the pages (above)"
for f in "$shots"/*.png; do [ -s "$f" ] || fail "$(basename "$f") is empty"; done

pages_of() { pdfinfo "$1" 2>/dev/null | awk '/^Pages:/ { print $2 }'; }
# print_page NAME: checks the event's name, date and round on every page of $shots/NAME.pdf.
print_page() {
  local name=$1 pdf=$shots/$1.pdf n p
  [ -s "$pdf" ] || { fail "$name: not printed"; return; }
  n=$(pages_of "$pdf")
  [ -n "$n" ] && [ "$n" -ge 1 ] || { fail "$name.pdf has no page"; return; }
  for p in $(seq 1 "$n"); do
    pdftotext -f "$p" -l "$p" "$pdf" "$work/page.txt"
    grep -q -F "$event_name" "$work/page.txt" || fail "$name.pdf, page $p of $n: no event name"
    grep -q -F "$event_date" "$work/page.txt" || fail "$name.pdf, page $p of $n: no event date"
    grep -q -E 'Round [0-9]+|before round 1' "$work/page.txt" || fail "$name.pdf, page $p of $n: no round"
  done
  pdftoppm -f 1 -l 1 -r 50 -png "$pdf" "$shots/$name-print" 2>/dev/null || fail "$name.pdf: no PNG of page 1"
}
for page in "$site"/*.html; do
  name=$(basename "$page" .html)
  [ "$name" = clock ] || print_page "site-$name"
done
for page in "$prints"/*.html; do
  print_page "$(basename "$page" .html)"
done
print_page sheets-index
for page in "$prints"/sheets/library-*.html; do
  name=$(basename "$page" .html)
  print_page "$name"
  [ "$(pages_of "$shots/$name.pdf")" = 1 ] || fail "$name.pdf: a deck sheet takes $(pages_of "$shots/$name.pdf") pages, not one"
done
[ "$(pages_of "$shots/site-decks.pdf")" = "$libraries" ] ||
  fail "site-decks.pdf: $(pages_of "$shots/site-decks.pdf") pages for $libraries libraries (one page each)"
# The slips: two challenge boxes per player (the challenge limit), a turn-at-time box per slip.
for page in "$site"/round-*-slips.html; do
  name=site-$(basename "$page" .html)
  slips=$(grep -c '<section class="slip">' "$page" || true)
  boxes=$(grep -o 'title="lost challenge [0-9]*"' "$page" | wc -l)
  [ "$boxes" -ge $((slips * 4)) ] || fail "$name: $boxes challenge boxes for $slips slips (two per player)"
  turns=$(pdftotext "$shots/$name.pdf" - | grep -c 'At time, the game was on turn' || true)
  [ "$turns" = "$slips" ] || fail "$name.pdf: $turns turn-at-time boxes for $slips slips"
  pdftotext "$shots/$name.pdf" - | grep -q 'Challenges lost' || fail "$name.pdf: no challenge boxes"
done

# Round 3 carries libraries to a player who stays at table 1: the pairings' prints and the slips say so, on paper
# and at phone width, the whole print in one tall screenshot (the prints of the current round, round 3).
carry='3A, 3B from table 3 to table 1; 1A, 1B from table 1 to table 3'
for name in pairings wall site-round-3-pairings; do
  pdftotext "$shots/$name.pdf" - | tr -s ' \n' ' ' | grep -q -F "$carry" || fail "$name.pdf does not list the libraries to carry ($carry)"
done
pdftotext "$shots/site-round-3-slips.pdf" - | tr -s ' \n' ' ' | grep -q -F 'Libraries 3A and 3B are carried here from table 3' ||
  fail "site-round-3-slips.pdf: table 1's slip does not say its libraries came from table 3"

if [ "$failures" -gt 0 ]; then
  echo "check-site: $failures problem(s)" >&2
  exit 1
fi
printed=$(find "$shots" -name '*.pdf' | wc -l)
echo "check-site: ${#pages[@]} pages render without errors; $printed prints carry the event's name, date and round on every page${SHOTS:+; screenshots and PDFs in $SHOTS}"
