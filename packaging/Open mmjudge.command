#!/bin/sh
# macOS: double-click this file in the Finder to run `mmjudge open` in a Terminal window (your events in
# Documents/mmjudge, the chosen one in your browser; close the window to stop). It finds mmjudge beside itself
# (the archive's folder) or where the installer put it.
here="$(cd "$(dirname "$0")" && pwd)"
PATH="$here:${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export PATH
exec mmjudge open
