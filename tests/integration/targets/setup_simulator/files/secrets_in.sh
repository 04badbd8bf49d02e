#!/usr/bin/env bash
# secrets_in.sh SECRETS FILE...: exits 1, naming the file, when a line of SECRETS appears in a FILE, as written or with
# the FILE's whitespace removed: Ansible wraps a warning to the terminal's width, at spaces and after hyphens
# (textwrap), so a secret a warning leaked may reach the output split over two lines. Prints no secret. SECRETS may
# be a pipe (<(...)): it is read once.
set -eu
patterns="$(mktemp)"
squeezed="$(mktemp)"
trap 'rm -f "${patterns}" "${squeezed}"' EXIT
grep -v '^$' "$1" >"${patterns}" || true  # an empty pattern would match every line
tr -d ' \t' <"${patterns}" | grep -v '^$' >"${squeezed}" || true
shift
for file in "$@"; do
  if grep -q -F -f "${patterns}" -- "${file}" || tr -d '[:space:]' <"${file}" | grep -q -F -f "${squeezed}"; then
    echo "LEAK: a secret appears in ${file##*/}" >&2
    exit 1
  fi
done
