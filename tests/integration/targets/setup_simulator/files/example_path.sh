#!/usr/bin/env bash
# example_path.sh RELATIVE: the path of the collection's docs/examples/RELATIVE, for a target that runs a guide's
# example as a user does. ansible-test leaves docs/ out of the copy it runs targets in (under the collection's own
# tests/output): the example is in the first directory above the current one that holds galaxy.yml and it.
set -eu
directory="$(pwd)"
while [ "${directory}" != / ]; do
  if [ -f "${directory}/galaxy.yml" ] && [ -f "${directory}/docs/examples/$1" ]; then
    echo "${directory}/docs/examples/$1"
    exit 0
  fi
  directory="$(dirname "${directory}")"
done
echo "docs/examples/$1 not found above $(pwd)" >&2
exit 1
