#!/usr/bin/env bash
# The run step of action.yml: installs the tarball, validates the files the patterns match and writes the report.
# Inputs arrive as INPUT_* variables; runs in GITHUB_WORKSPACE (default: the current directory), so the report names
# files relative to the repository root, as code scanning expects. npm settings apply (npm_config_offline=true).
set -euo pipefail

: "${INPUT_PATHS:?paths is required}" "${INPUT_PACKAGE:?package is required}"
level=${INPUT_LEVEL:-schema}
rules=${INPUT_RULES:-}
constraints=${INPUT_CONSTRAINTS:-}
documents=${INPUT_DOCUMENTS:-}
format=${INPUT_FORMAT:-sarif}
output=${INPUT_OUTPUT:-oscal-validation.sarif}
docs_base_url=${INPUT_DOCS_BASE_URL:-}
fail_on_invalid=${INPUT_FAIL_ON_INVALID:-true}
action_dir=$(cd "$(dirname "$0")/.." && pwd)
package=$(realpath "$INPUT_PACKAGE")
install_dir=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/oscal-validator.XXXXXX")

"$action_dir/scripts/install-from-tarball.sh" "$package" "$install_dir" >&2
cd "${GITHUB_WORKSPACE:-$PWD}"

shopt -s globstar nullglob
files=()
read -r -d '' -a patterns <<<"$INPUT_PATHS" || true
for pattern in "${patterns[@]}"; do
  matches=($pattern)
  if [ "${#matches[@]}" -eq 0 ]; then
    echo "::error::No file matches ${pattern}" >&2
    exit 2
  fi
  files+=("${matches[@]}")
done

# Without the input, the CLI links to the rule pages published for its version (the release sets its homepage).
args=(--level "$level" --format "$format")
[ -n "$docs_base_url" ] && args+=(--docs-base-url "$docs_base_url")
[ -n "$rules" ] && args+=(--rules "$rules")
[ -n "$constraints" ] && args+=(--constraints "$constraints")
[ -n "$documents" ] && args+=(--documents "$documents")
status=0
"$install_dir/node_modules/.bin/oscal-validate" "${args[@]}" -- "${files[@]}" >"$output" || status=$?
echo "oscal-validate checked ${#files[@]} file(s), exit status ${status}; report in ${output}" >&2
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "report=${output}"; echo "exit-code=${status}"; } >>"$GITHUB_OUTPUT"
fi

if [ "$status" -eq 1 ] && [ "$fail_on_invalid" != "true" ]; then exit 0; fi
exit "$status"
