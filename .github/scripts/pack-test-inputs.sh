#!/usr/bin/env bash
# Packs the test inputs that have no pinned upstream download (the real-world corpus, FedRAMP's converted test content,
# the profile-resolution examples and the SARIF schema) from SHARED into one archive, byte for byte the same on every
# run: sorted names, fixed times and owners, no gzip timestamp. A maintainer uploads it once as the asset
# test-inputs.tar.gz of the release tagged test-inputs and records its sum in .github/test-inputs.sha256.
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 SHARED OUT.tar.gz" >&2
  exit 2
fi
tar --create --format=gnu --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --mode=u+rw,go+r,go-w \
  --directory="$1" corpus fedramp profile-resolution sarif | gzip -n -9 >"$2"
sha256sum "$2"
