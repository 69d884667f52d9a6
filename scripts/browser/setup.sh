# Shared by the browser checks (check-serve.sh, check-offline.sh, check-failover.sh, check-bytes.sh, check-a11y.sh), sourced after `check` names the
# check: finds the debug binary (built when missing), the machine's Chromium, node and npm, and installs
# playwright-core and axe-core into scripts/browser/node_modules the first time (it drives that Chromium, downloads none).
# Sets root, bin, browser and started; `address_of PID FILE` waits for the address `mmjudge --json serve` prints.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${MMJUDGE:-$root/target/debug/mmjudge}
if [ ! -x "$bin" ]; then (cd "$root" && cargo build --quiet); fi
browser=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [ -z "$browser" ]; then
  echo "$check: no Chromium found: apt-get install -y chromium" >&2
  exit 1
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "$check: node and npm are needed (node 20 or later): apt-get install -y nodejs npm" >&2
  exit 1
fi
started=$(date +%s)
if [ ! -d "$root/scripts/browser/node_modules/playwright-core" ] || [ ! -d "$root/scripts/browser/node_modules/axe-core" ]; then
  (cd "$root/scripts/browser" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

# The first address the server at PID printed in FILE (its --json first line), waiting up to 10 s.
address_of() {
  local pid=$1 out=$2 err=${3:-/dev/null} address=
  for _ in $(seq 100); do
    address=$(node -e 'try{const l=require("fs").readFileSync(process.argv[1],"utf8").split("\n")[0];console.log(JSON.parse(l).urls[0])}catch(e){}' "$out")
    [ -n "$address" ] && break
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "$check: the server did not start: $(cat "$err")" >&2
      exit 1
    fi
    sleep 0.1
  done
  if [ -z "$address" ]; then
    echo "$check: the server printed no address within 10 s" >&2
    exit 1
  fi
  echo "$address"
}

# A small event in the file MMJUDGE_DB names: the 16 bundled players, the bundled reference and pool, 8 tables'
# libraries, round 1 paired and started.
small_event() {
  "$bin" event new "$1" --seed 7 >/dev/null
  "$bin" player import "$root/examples/players.csv" >/dev/null
  "$bin" cards import "$root/examples/cards.csv" >/dev/null
  "$bin" pool import "$root/examples/pool.csv" >/dev/null
  "$bin" library build --tables 8 >/dev/null
  "$bin" round pair >/dev/null
  "$bin" round start >/dev/null
}

# A temporary folder for the check ($work) and the servers it starts ($server, $server2: their PIDs once started),
# stopped and removed when the check ends, however it ends.
work=$(mktemp -d)
server=
server2=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  if [ -n "$server2" ]; then kill "$server2" 2>/dev/null || true; wait "$server2" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
