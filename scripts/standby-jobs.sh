#!/usr/bin/env bash
# Every write through one door (#45), with the standby frozen (kill -STOP): a players import, a library build and
# a check-in on a primary with --standby-required are neither done nor ok (three judges' writers adding players
# and watching cards beside them all along); the primary killed with kill -9 and the
# standby's file promoted, every job answered done and every write answered ok is there exactly once; the old
# primary restarted with plain `serve` answers no write ok (tests/cli/standby_door.rs, an ignored test).
# RUNS=3 by default (about half a minute); RUNS=20 for the long version.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}" cargo test --test cli standby_door::with_the_standby_frozen -- --ignored --nocapture "$@"
