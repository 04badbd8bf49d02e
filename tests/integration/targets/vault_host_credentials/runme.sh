#!/usr/bin/env bash
# The role credvault.vault.host_credentials and its action credvault.vault.vault_host_credentials, over hosts whose
# connection (connection_plugins/recording_local.py) records which password each command was run with.
# 1. setup.yml puts each host's passwords in the vault (they are nowhere else: not in the inventory);
# 2. once.yml: two plays of one run, forks then strategy free with serial 2 and a delegated command: two retrievals
#    per host in the whole run, every command run with its host's password, none for a host without accounts;
#    run at -vvvv with a jsonfile fact cache, and neither the output nor the cache holds a password;
# 3. failures.yml: a missing resource, a missing account and a refused retrieval (reason and ticket forced) fail
#    their host alone, with messages naming the resource and the account; the good host goes on;
# 4. examples.yml: the module's EXAMPLES as they are;
# 5. check_mode.yml: the role in check mode sets the passwords and reports no change.
set -eu
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

config="$(pwd)/../../integration_config.yml"
work="${OUTPUT_DIR:-$(mktemp -d)}"
export ANSIBLE_CONNECTION_PLUGINS="${PWD}/connection_plugins"
export ANSIBLE_LOOKUP_PLUGINS="${PWD}/../setup_simulator/lookup_plugins"
export ANSIBLE_CACHE_PLUGIN=jsonfile ANSIBLE_CACHE_PLUGIN_CONNECTION="${work}/fact_cache" ANSIBLE_FORKS=20
export RECORDING_LOCAL_FILE="${work}/connections.txt"
run() { ansible-playbook -i inventory.yml -e "@${config}" "$@"; }

run playbooks/setup.yml
: > "${RECORDING_LOCAL_FILE}"
run playbooks/once.yml -vvvv > "${work}/once.log" 2>&1 || { cat "${work}/once.log"; exit 1; }
python - "${work}/once.log" "${work}/fact_cache" <<'PYTHON'
import os
import sys

import yaml

log, cache = sys.argv[1], sys.argv[2]
passwords = [
    password
    for accounts in yaml.safe_load(open("vars/passwords.yml", encoding="utf-8"))["hc_passwords"].values()
    for password in accounts.values()
]
places = {log: open(log, encoding="utf-8").read()}
for name in os.listdir(cache) if os.path.isdir(cache) else []:
    places[os.path.join(cache, name)] = open(os.path.join(cache, name), encoding="utf-8").read()
# Also without whitespace: Ansible wraps a warning at spaces and after hyphens, which may split a leaked password.
leaks = [
    (place, index)
    for place, text in places.items()
    for index, secret in enumerate(passwords)
    if secret in text or "".join(secret.split()) in "".join(text.split())
]
assert not leaks, "passwords found (file, password number): %r" % leaks
print("no password in the -vvvv output nor in the %d fact cache files" % (len(places) - 1))
PYTHON

if run playbooks/failures.yml > "${work}/failures.log" 2>&1; then
  cat "${work}/failures.log"; echo "failures.yml should have failed" >&2; exit 1
fi
for expected in \
  "cannot fetch the login password of it-hc-missing/deploy: resource it-hc-missing does not exist" \
  "cannot fetch the login password of it-hc-noaccount/nobody: resource it-hc-noaccount has no account nobody" \
  "cannot fetch the login password of it-hc-strict/deploy: GET PASSWORD failed: A reason is required" \
  ; do
  grep -qF "${expected}" "${work}/failures.log" || { cat "${work}/failures.log"; echo "missing: ${expected}" >&2; exit 1; }
done
grep -E '^it-hc-01 +: ok=[0-9]+ .*failed=0' "${work}/failures.log"
test "$(grep -cE '^it-hc-(missing|noaccount|strict) +: .*failed=1' "${work}/failures.log")" = 3

run playbooks/examples.yml > "${work}/examples.log" 2>&1 || { cat "${work}/examples.log"; exit 1; }

# 6. module_defaults.yml: the role's connection from the play's and a block's module_defaults, merged with its own
#    variable and the environment (CREDVAULT_URL only: the simulator's URL, from the integration config).
url="$(python -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["credvault_simulators"]["default"]["url"])' "${config}")"
CREDVAULT_URL="${url}" run playbooks/module_defaults.yml > "${work}/module_defaults.log" 2>&1 \
  || { cat "${work}/module_defaults.log"; exit 1; }

run playbooks/check_mode.yml --check > "${work}/check_mode.log" 2>&1 || { cat "${work}/check_mode.log"; exit 1; }
grep -E '^it-hc-03 +: .*changed=0 .*failed=0' "${work}/check_mode.log"
