#!/usr/bin/env bash
# docs/examples/demo.yml, the playbook `make demo` runs, as it is, against the default simulator with the
# connection from CREDVAULT_* (as `make demo` gives it): the first run creates everything and every check of
# the demo passes; the second run changes nothing but the share (vault_share reports every share it sends, the
# vault cannot read shares back) and leaves the pipeline's token file as it was.
set -eu
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

config="$(pwd)/../../integration_config.yml"
# ansible-test leaves docs/ out of the copy it runs targets in; that copy lives under the collection's own
# tests/output, so the demo is found in the first directory above that holds galaxy.yml and the demo.
demo=""
directory="$(pwd)"
while [ "${directory}" != / ]; do
  if [ -f "${directory}/galaxy.yml" ] && [ -f "${directory}/docs/examples/demo.yml" ]; then
    demo="${directory}/docs/examples/demo.yml"
    break
  fi
  directory="$(dirname "${directory}")"
done
test -n "${demo}" || { echo "docs/examples/demo.yml not found above $(pwd)" >&2; exit 1; }
work="${OUTPUT_DIR:-$(mktemp -d)}"
token_dir="${work}/demo-tokens"

eval "$(python - "${config}" <<'PYTHON'
import json
import shlex
import sys

with open(sys.argv[1], encoding="utf-8") as handle:
    sim = json.load(handle)["credvault_simulators"]["default"]
for name, key in (("URL", "url"), ("AUTH_TOKEN", "token"), ("CA_PATH", "ca_path"), ("EDITION", "edition"),
                  ("BUILD", "build")):
    print("export CREDVAULT_%s=%s" % (name, shlex.quote(str(sim[key]))))
PYTHON
)"

run_demo() {
  ansible-playbook -i localhost, -c local -e ansible_python_interpreter="$(command -v python)" \
    -e "token_dir=${token_dir}" "${demo}"
}

run_demo | tee "${work}/demo-first.log"
grep -Eq "localhost +: ok=[0-9]+ +changed=[1-9][0-9]* +unreachable=0 +failed=0" "${work}/demo-first.log"
test "$(stat -c %a "${token_dir}/demo-pipeline.token")" = 600
first_token="$(sha256sum "${token_dir}/demo-pipeline.token")"

run_demo | tee "${work}/demo-second.log"
grep -Eq "localhost +: ok=[0-9]+ +changed=1 +unreachable=0 +failed=0" "${work}/demo-second.log"
grep -q "user demo-pipeline: already there" "${work}/demo-second.log"
test "$(sha256sum "${token_dir}/demo-pipeline.token")" = "${first_token}"
echo "demo: first run created, second run changed only the share"
