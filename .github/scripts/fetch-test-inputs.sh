#!/usr/bin/env bash
# Unpacks into DIR (../shared beside the checkout) the test inputs archive (see pack-test-inputs.sh), downloaded from
# this repository's release tagged test-inputs and checked against the sum in .github/test-inputs.sha256.
set -euo pipefail

if [ "$#" -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
: "${GITHUB_REPOSITORY:?GITHUB_REPOSITORY (owner/name) is required}"
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
archive=$(mktemp)
curl -fsSL --retry 3 -o "$archive" "https://github.com/$GITHUB_REPOSITORY/releases/download/test-inputs/test-inputs.tar.gz"
echo "$(cat "$repo/.github/test-inputs.sha256")  $archive" | sha256sum --check --quiet
tar --extract --gzip --file="$archive" --directory="$1"
rm "$archive"
