#!/usr/bin/env bash
# The collection against the simulator that answers as recorded real Password Manager Pro and PAM360 servers do
# (profile `real` of tests/utils/with_simulators.py: --edition A --build 12450 --dialect real), where it needs a
# real Ansible run: playbooks/real_dialect.yml makes a resource and its accounts, reads a password by a lookup
# through Ansible's templating, runs the inventory plugin (ansible-inventory on real.vault_resources.yml) and the
# host_credentials role over a host with the local connection (inventory.yml); playbooks/cleanup.yml removes what
# it made, before and after. Every domain converged twice, the other lookups and an unknown token are
# tests/unit/plugins/scenarios/test_real_dialect.py's (the modules run in-process against the same profile).
set -eu
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

config="$(pwd)/../../integration_config.yml"
work="${OUTPUT_DIR:-$(mktemp -d)}"
export ANSIBLE_LOOKUP_PLUGINS="${PWD}/../setup_simulator/lookup_plugins"
export COLUMNS=1000

run() {
  ansible-playbook -i inventory.yml -e "@${config}" "$@"
}

cleanup() {
  run playbooks/cleanup.yml >"${work}/real_dialect_cleanup.log" 2>&1 || {
    tail -n 40 "${work}/real_dialect_cleanup.log" >&2
    echo "real_dialect: cleanup failed" >&2
  }
}
trap cleanup EXIT

cleanup
run playbooks/real_dialect.yml

# The guide's example (docs/examples/real_vaults/check_vault.yml), as a user runs it: twice against each dialect,
# the connection from CREDVAULT_* variables; the second run must change nothing.
example="$(../setup_simulator/files/example_path.sh real_vaults/check_vault.yml)"
for profile in real default; do
  eval "$(python -c 'import json, shlex, sys
ready = json.load(open(sys.argv[1]))["credvault_simulators"][sys.argv[2]]
for name, key in (("URL", "url"), ("AUTH_TOKEN", "token"), ("CA_PATH", "ca_path")):
    print("export CREDVAULT_%s=%s" % (name, shlex.quote(str(ready[key]))))' "${config}" "${profile}")"
  for attempt in first second; do
    ansible-playbook -i localhost, -c local -e "ansible_python_interpreter=$(command -v python)" "${example}" \
      >"${work}/check_vault_${profile}_${attempt}.log" 2>&1 || {
      tail -n 40 "${work}/check_vault_${profile}_${attempt}.log" >&2
      exit 1
    }
  done
  grep -q 'localhost *: ok=4 *changed=0 ' "${work}/check_vault_${profile}_second.log" || {
    echo "real_dialect: the second run of check_vault.yml against ${profile} changed something" >&2
    tail -n 20 "${work}/check_vault_${profile}_second.log" >&2
    exit 1
  }
done
unset CREDVAULT_URL CREDVAULT_AUTH_TOKEN CREDVAULT_CA_PATH
