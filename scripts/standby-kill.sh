#!/usr/bin/env bash
# The second laptop's kill test, 20 times (RUNS=N for N; .ci/run runs 3, `cargo bench -- attacks` the 20): a primary with --standby-required killed with kill -9 at a random
# moment while a writer posts, a fresh standby each time; every write answered "applied" must be on the promoted
# standby exactly once (tests/cli/standby.rs, an ignored test: too slow for every `cargo test`).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --test cli standby::kills_of_the_primary_lose_nothing_answered_applied -- --ignored --nocapture "$@"
