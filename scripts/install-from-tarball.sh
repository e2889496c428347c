#!/usr/bin/env bash
# Installs an oscal-validator tarball (`npm pack` output) into DIR, with every run-time dependency at the version of
# this repository's package-lock.json and no dev dependency: the install the package test, the container image and
# the GitHub Action perform. The bins end up in DIR/node_modules/.bin. Extra arguments go to npm (e.g. --offline).
set -euo pipefail

if [ "$#" -lt 2 ]; then
  echo "usage: $0 TARBALL DIR [NPM_ARG...]" >&2
  exit 2
fi
tarball=$1
dir=$2
shift 2
repo=$(cd "$(dirname "$0")/.." && pwd)

mkdir -p "$dir"
cp "$tarball" "$dir/oscal-validator.tgz"
tar -xzOf "$tarball" package/package.json >"$dir/.package.json"
node "$repo/scripts/pinned-lockfile.mjs" "$dir" oscal-validator.tgz "$dir/.package.json" "$repo/package-lock.json"
rm "$dir/.package.json"
# No install scripts: the run time needs none (uWebSockets.js ships prebuilt binaries).
(cd "$dir" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund "$@")
rm "$dir/oscal-validator.tgz"
