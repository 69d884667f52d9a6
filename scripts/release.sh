#!/usr/bin/env bash
# This machine's release archive, built exactly as the release workflow (.github/workflows/release.yml) builds
# it: `dist build` for the host's target with the dist version the workflow pins (dist-workspace.toml's
# cargo-dist-version; installed with `cargo install --locked` when missing or another version), then the
# installers (`--artifacts=global`, as the workflow's global job). Everything lands in target/distrib/.
# The other platforms (macOS, Windows and its MSI, aarch64 Linux) are built only by the workflow, on their own
# machines. At the end the host archive is unpacked into an empty folder and runs `mmjudge demo` with
# PATH=/usr/bin:/bin (no Rust, nothing from the tree).
set -euo pipefail
cd "$(dirname "$0")/.."

want=$(sed -n 's/^cargo-dist-version = "\(.*\)"$/\1/p' dist-workspace.toml)
[ -n "$want" ] || { echo "error: no cargo-dist-version in dist-workspace.toml" >&2; exit 1; }
have=$(dist --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "== installing dist $want (cargo install cargo-dist --locked --version $want; a few minutes)"
  cargo install cargo-dist --locked --version "$want"
fi

if [ ! -f .github/workflows/release.yml ] || [ ! -f wix/main.wxs ]; then
  echo "== dist generate: the release workflow and the MSI's wix/main.wxs from dist-workspace.toml (commit them)"
  dist generate
fi

host=$(rustc -vV | sed -n 's/^host: //p')
echo "== dist build for $host (the workflow's build-local-artifacts job)"
dist build --artifacts=local --target="$host"
echo "== dist build of the installers (the workflow's build-global-artifacts job)"
dist build --artifacts=global
echo "== target/distrib/"
ls -l target/distrib/
echo "== the archive's binary runs the demo on its own: unpacked in an empty folder, PATH=/usr/bin:/bin, no Rust"
archive=$(ls target/distrib/mmjudge*-"$host".tar.* | grep -v "\.sha256$" | head -n1)
try=$(mktemp -d)
trap 'rm -rf "$try"' EXIT
mkdir "$try/empty"
tar -xf "$archive" -C "$try"
(cd "$try/empty" && env -i HOME="$try" PATH=/usr/bin:/bin "$try"/mmjudge-*/mmjudge demo >"$try/demo.out")
grep -q "^Done in" "$try/demo.out" || { echo "error: the archive's mmjudge did not finish its demo" >&2; cat "$try/demo.out" >&2; exit 1; }
[ -f "$try/empty/mmjudge-demo/site/index.html" ] || { echo "error: the demo wrote no site" >&2; exit 1; }
echo "ok: $archive runs the demo (its site and event file written) with PATH=/usr/bin:/bin"
