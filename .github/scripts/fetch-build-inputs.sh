#!/usr/bin/env bash
# Lays out in DIR (the build's default: ../shared beside the checkout) the upstream files the build compiles, each
# downloaded from its pinned source and checked against the SHA-256 this repository records for it:
#   oscal/1.2.2/json/schema/   the JSON schemas of NIST's OSCAL v1.2.2 release archive (the archive's own sum below)
#   oscal/1.2.2/metaschema/    the metaschema sources of usnistgov/OSCAL at tag v1.2.2 (schemas/METASCHEMA.SHA256SUMS;
#                              the release archive holds only their resolved forms, which the build does not read)
#   fedramp/constraints/       FedRAMP's constraint files at the commit compiler/packs/fedramp names (its SHA256SUMS)
set -euo pipefail

if [ "$#" -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
repo=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
dir=$(cd "$1" && pwd)

OSCAL_ZIP_URL=https://github.com/usnistgov/OSCAL/releases/download/v1.2.2/oscal-1.2.2.zip
OSCAL_ZIP_SHA256=d2935239d3eac06cd65ed77295b92023bb3921e035755b89c87e7e42bd4b85a4
# The commit tag v1.2.2 points at: a tag can move, a commit cannot.
OSCAL_COMMIT=21403b4ad2f162ef1201e5ee70e8b93f254f51ac
FEDRAMP_COMMIT=b79ec536d70b8faf3ab278172891320bf84f274e

fetch() { curl -fsSL --retry 3 -o "$2" "$1"; }

# Downloads every file SUMS lists from BASE_URL into TARGET, then checks them all.
fetch_listed() {
  local sums=$1 base_url=$2 target=$3 name
  while read -r _ name; do
    mkdir -p "$(dirname "$target/$name")"
    fetch "$base_url/$name" "$target/$name"
  done <"$sums"
  (cd "$target" && sha256sum --check --quiet "$sums")
}

release=$dir/oscal/1.2.2/release
mkdir -p "$release" "$dir/oscal/1.2.2/json/schema"
fetch "$OSCAL_ZIP_URL" "$release/oscal-1.2.2.zip"
echo "$OSCAL_ZIP_SHA256  $release/oscal-1.2.2.zip" | sha256sum --check --quiet
# The archive's json/schema/ entries are the files schemas/SHA256SUMS pins, byte for byte.
unzip -q -o -j "$release/oscal-1.2.2.zip" 'json/schema/*.json' -d "$dir/oscal/1.2.2/json/schema"
(cd "$dir/oscal/1.2.2/json/schema" && sha256sum --check --quiet "$repo/schemas/SHA256SUMS")

fetch_listed "$repo/schemas/METASCHEMA.SHA256SUMS" "https://raw.githubusercontent.com/usnistgov/OSCAL/$OSCAL_COMMIT/src/metaschema" "$dir/oscal/1.2.2/metaschema"
fetch_listed "$repo/compiler/packs/fedramp/SHA256SUMS" "https://raw.githubusercontent.com/GSA/fedramp-automation/$FEDRAMP_COMMIT/src/validations/constraints" "$dir/fedramp/constraints"
echo "build inputs verified in $dir" >&2
