#!/usr/bin/env bash
# The second laptop's sleep test, 20 times (RUNS=N for N; .ci/run runs 3, `cargo bench -- attacks` the 20): a primary with --standby-required frozen (kill -STOP, a closed lid)
# while two writers post, its standby promoted, then woken (kill -CONT) while one writer still posts to it; every
# write answered ok must be on the promoted laptop exactly once (tests/cli/standby_sync.rs, an ignored test: too
# slow for every `cargo test`; about 2 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --test cli standby_sync::frozen_primaries_lose_nothing_answered_ok -- --ignored --nocapture "$@"
