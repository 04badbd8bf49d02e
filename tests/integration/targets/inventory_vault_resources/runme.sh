#!/usr/bin/env bash
# The inventory plugin credvault.vault.vault_resources against the default simulator, configured as a user would:
# test.vault_resources.yml (the example of docs/inventory.md, as written there) with the connection from the
# CREDVAULT_* environment variables.
# 1. setup.yml makes four resources of three types, two of them in a resource group, with custom fields and
#    accounts with passwords;
# 2. ansible-inventory --graph and --list, cache off: the expected graph (expected_graph.txt), the host variables,
#    1 + 2 requests per resource;
# 3. the same with the jsonfile inventory cache on: the first run fills it with as many requests, the second makes
#    none and answers the same;
# 4. no secret (the account passwords, the password-named custom field's value, the token) in any --list output,
#    -vvvv log or cache file;
# 5. a playbook against the inventory uses a host variable and a composed one.
set -eu

config="$(pwd)/../../integration_config.yml"
work="${OUTPUT_DIR:-$(mktemp -d)}"
export COLUMNS=1000
export ANSIBLE_INVENTORY_ENABLED=auto

python - "${config}" "${work}/inventory_secrets.json" "${work}/inventory_env.sh" <<'PYTHON'
import json
import shlex
import sys

with open(sys.argv[1], encoding="utf-8") as handle:
    sim = json.load(handle)["credvault_simulators"]["default"]
with open(sys.argv[2], "w", encoding="utf-8") as handle:
    json.dump({"inv_account_password": "Inv-Acc0unt-pw-6621!", "inv_console_password": "Inv-C0nsole-pw-6622!"}, handle)
with open(sys.argv[3], "w", encoding="utf-8") as handle:
    for name, key in (("URL", "url"), ("AUTH_TOKEN", "token"), ("CA_PATH", "ca_path")):
        handle.write("export CREDVAULT_%s=%s\n" % (name, shlex.quote(str(sim[key]))))
PYTHON
# shellcheck disable=SC1091
source "${work}/inventory_env.sh"

secrets() {
  python -c 'import json, sys; [print(v) for v in json.load(open(sys.argv[1])).values()]' "${work}/inventory_secrets.json"
  printf '%s\n' "${CREDVAULT_AUTH_TOKEN}"
}

no_secret_in() {
  local file
  for file in "$@"; do
    if grep -q -F -f <(secrets) -- "${file}"; then
      echo "LEAK: a secret appears in ${file##*/}" >&2
      exit 1
    fi
  done
}

playbook() {
  ansible-playbook -i localhost, -c local -e "@${config}" -e "@${work}/inventory_secrets.json" \
    -e ansible_python_interpreter="$(command -v python)" "$@"
}

vault_requests() {
  python simulator_requests.py "${config}" "$1"
}

expect_requests() {
  local counted
  counted=$(vault_requests count)
  if [ "${counted}" != "$1" ]; then
    echo "$2: expected $1 vault requests, the simulator served ${counted}" >&2
    exit 1
  fi
}

# `inventory NAME ARGS...`: ansible-inventory on the example, stdout to NAME.out, stderr to NAME.log, counted.
inventory() {
  local name="$1"
  shift
  vault_requests reset
  ansible-inventory -i test.vault_resources.yml "$@" >"${work}/${name}.out" 2>"${work}/${name}.log" || {
    grep -v -F -f <(secrets) "${work}/${name}.log" | tail -n 40 >&2
    echo "ansible-inventory ${name}: failed" >&2
    exit 1
  }
  no_secret_in "${work}/${name}.out" "${work}/${name}.log"
}

cleanup() {
  playbook playbooks/cleanup.yml >"${work}/inventory_cleanup.log" 2>&1 || echo "cleanup failed" >&2
}
trap cleanup EXIT

cleanup
playbook playbooks/setup.yml >"${work}/inventory_setup.log" 2>&1 || {
  tail -n 40 "${work}/inventory_setup.log" | grep -v -F -f <(secrets) >&2
  exit 1
}
no_secret_in "${work}/inventory_setup.log"

resources=4
per_run=$((1 + 2 * resources))

# Cache off.
export ANSIBLE_INVENTORY_CACHE=false
inventory graph_uncached --graph
expect_requests "${per_run}" "--graph, cache off"
diff -u expected_graph.txt "${work}/graph_uncached.out"
inventory list_uncached --list -vvvv
expect_requests "${per_run}" "--list, cache off"
python check_list.py "${work}/list_uncached.out" "${work}/list_uncached.json"

# Cache on: filled by the first run, answering the next ones without a request.
export ANSIBLE_INVENTORY_CACHE=true ANSIBLE_INVENTORY_CACHE_PLUGIN=ansible.builtin.jsonfile
export ANSIBLE_INVENTORY_CACHE_CONNECTION="${work}/inventory_cache"
rm -rf "${ANSIBLE_INVENTORY_CACHE_CONNECTION}"
inventory list_cache_filled --list
expect_requests "${per_run}" "--list, cache on and empty"
inventory list_cached --list -vvvv
expect_requests 0 "--list, cache on and filled"
python check_list.py "${work}/list_cached.out" "${work}/list_cached.json"
diff -u "${work}/list_uncached.json" "${work}/list_cached.json"
inventory graph_cached --graph
expect_requests 0 "--graph, cache on and filled"
diff -u expected_graph.txt "${work}/graph_cached.out"
cache_files=("${ANSIBLE_INVENTORY_CACHE_CONNECTION}"/*)
[ -f "${cache_files[0]}" ] || { echo "the inventory cache wrote no file" >&2; exit 1; }
no_secret_in "${cache_files[@]}"

# A playbook against the inventory (from the cache).
rm -f "${work}"/it-inv-*.environment
ansible-playbook -i test.vault_resources.yml -e output_dir="${work}" \
  -e ansible_python_interpreter="$(command -v python)" playbooks/use_host_vars.yml >"${work}/inventory_play.log" 2>&1 || {
  tail -n 40 "${work}/inventory_play.log" | grep -v -F -f <(secrets) >&2
  exit 1
}
no_secret_in "${work}/inventory_play.log"
grep -qx production "${work}/it-inv-web-01.environment"
grep -qx staging "${work}/it-inv-web-02.environment"
echo "inventory_vault_resources: graph, list, cache off and on (0 requests cached), no secret, playbook checked"
