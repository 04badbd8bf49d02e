#!/usr/bin/env bash
# The inventory plugin credvault.vault.vault_resources against the default simulator (edition A), configured as a
# user would: test.vault_resources.yml (the example of the inventory guide, docs/docsite/rst/guide_inventory.rst) with the connection from
# the CREDVAULT_* environment variables.
# 1. setup.yml makes four resources of three types, two of them in a resource group, with custom fields (secrets in
#    Character fields labelled Passwort, Kennwort, Mot de passe, Contraseña, SNMP community, Wi-Fi PSK and Console
#    Password, and in the Password-typed field it-inv Break-glass) and accounts with passwords, and a Password User
#    API user who sees it-inv-web-02 only;
# 2. ansible-inventory --graph and --list, cache off: the expected graph (expected_graph.txt), the host variables
#    (custom fields: Environment only, the one allowed), 1 + 2 requests per resource;
# 3. the same with the jsonfile inventory cache on (umask 022): the first run fills it with as many requests, the
#    next ones make one (GET RESOURCES, the token check) and answer the same; the cache files are 0600;
# 4. the cache per token: the Password User's token gets its own inventory (one host), not the administrator's
#    cache, then its own cache after one request; an unknown token, and the Password User's token once the user is
#    deleted (its cache still on disk), are refused by the vault, never answered from a cache;
# 5. custom_fields: ["*"] shows every Character field (the user's choice) and never the Password-typed one;
#    details: false keeps the DNS name (from the detail in edition A, 1 + 1 request per resource);
# 6. no secret (the account passwords, the custom fields' secrets, the tokens) in any --list output, -vvvv log or
#    cache file; with custom_fields: ["*"], none but the Character fields';
# 7. a playbook against the inventory uses a host variable and a composed one.
set -eu
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

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
foreign = {
    "Passwort": "Inv-Passwort-6631",
    "Kennwort": "Inv-Kennwort-6632",
    "Mot de passe": "Inv-Mot-de-passe-6633",
    "Contraseña": "Inv-Contrasena-6634",
    "SNMP community": "Inv-Snmp-community-6635",
    "Wi-Fi PSK": "Inv-Wifi-psk-6636",
}
with open(sys.argv[2], "w", encoding="utf-8") as handle:
    json.dump(
        {
            "inv_account_password": "Inv-Acc0unt-pw-6621!",
            "inv_console_password": "Inv-C0nsole-pw-6622!",
            "inv_break_glass_password": "Inv-Break-gl4ss-6623!",
            "inv_foreign_fields": foreign,
        },
        handle,
    )
with open(sys.argv[3], "w", encoding="utf-8") as handle:
    for name, key in (("URL", "url"), ("AUTH_TOKEN", "token"), ("CA_PATH", "ca_path")):
        handle.write("export CREDVAULT_%s=%s\n" % (name, shlex.quote(str(sim[key]))))
PYTHON
# shellcheck disable=SC1091
source "${work}/inventory_env.sh"
admin_token="${CREDVAULT_AUTH_TOKEN}"
reader_token_file="${work}/inventory_reader_token"
rm -f "${reader_token_file}"

# `secrets [all|typed]`: the test's secrets, one a line; `typed` leaves out the values of the Character custom
# fields, which an inventory with custom_fields: ["*"] shows by the user's choice.
secrets() {
  python - "${work}/inventory_secrets.json" "${1:-all}" <<'PYTHON'
import json
import sys

with open(sys.argv[1], encoding="utf-8") as handle:
    secrets = json.load(handle)
if sys.argv[2] == "typed":
    secrets = {name: secrets[name] for name in ("inv_account_password", "inv_break_glass_password")}
for value in secrets.values():
    print("\n".join(value.values()) if isinstance(value, dict) else value)
PYTHON
  printf '%s\n' "${admin_token}"
  [ ! -s "${reader_token_file}" ] || cat "${reader_token_file}"
}

# `no_secret_in FILE...`: none of `secrets ${shown_secrets:-all}` in any FILE.
no_secret_in() {
  ../setup_simulator/files/secrets_in.sh <(secrets "${shown_secrets:-all}") "$@"
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

# `inventory NAME ARGS...`: ansible-inventory on ${inventory_file:-the example}, stdout to NAME.out, stderr to
# NAME.log, counted.
inventory() {
  local name="$1"
  shift
  vault_requests reset
  ansible-inventory -i "${inventory_file:-test.vault_resources.yml}" "$@" >"${work}/${name}.out" 2>"${work}/${name}.log" || {
    grep -v -F -f <(secrets) "${work}/${name}.log" | tail -n 40 >&2
    echo "ansible-inventory ${name}: failed" >&2
    exit 1
  }
  no_secret_in "${work}/${name}.out" "${work}/${name}.log"
}

# `inventory_refused NAME MESSAGE ARGS...`: ansible-inventory on the example fails, saying MESSAGE, with no host.
inventory_refused() {
  local name="$1" message="$2"
  shift 2
  vault_requests reset
  if ANSIBLE_INVENTORY_UNPARSED_FAILED=true ansible-inventory -i test.vault_resources.yml "$@" \
    >"${work}/${name}.out" 2>"${work}/${name}.log"; then
    echo "ansible-inventory ${name}: answered, expected the vault's refusal" >&2
    exit 1
  fi
  grep -q -F -- "${message}" "${work}/${name}.log" || {
    grep -v -F -f <(secrets) "${work}/${name}.log" | tail -n 20 >&2
    echo "ansible-inventory ${name}: the failure does not say ${message}" >&2
    exit 1
  }
  if grep -q "it-inv-" "${work}/${name}.out"; then
    echo "ansible-inventory ${name}: refused, yet it listed a host" >&2
    exit 1
  fi
  no_secret_in "${work}/${name}.out" "${work}/${name}.log"
}

cleanup() {
  playbook playbooks/cleanup.yml >"${work}/inventory_cleanup.log" 2>&1 || echo "cleanup failed" >&2
}
trap cleanup EXIT

cleanup
python simulator_requests.py "${config}" custom-field "it-inv Break-glass" Password
playbook playbooks/setup.yml -e reader_token_file="${reader_token_file}" >"${work}/inventory_setup.log" 2>&1 || {
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

# Other settings, cache off: every custom field allowed but the Password-typed one; no details, yet the DNS name.
inventory_file=all_fields.vault_resources.yml shown_secrets=typed inventory list_all_fields --list
expect_requests $((1 + resources)) "--list, custom_fields: [*] and no resource groups"
python check_variants.py all_fields "${work}/list_all_fields.out"
inventory_file=no_details.vault_resources.yml inventory list_no_details --list
expect_requests $((1 + resources)) "--list, details: false in edition A (the DNS name from each detail)"
python check_variants.py no_details "${work}/list_no_details.out"

# Cache on: filled by the first run, answering the next ones after one request, the token check.
umask 022
export ANSIBLE_INVENTORY_CACHE=true ANSIBLE_INVENTORY_CACHE_PLUGIN=ansible.builtin.jsonfile
export ANSIBLE_INVENTORY_CACHE_CONNECTION="${work}/inventory_cache"
rm -rf "${ANSIBLE_INVENTORY_CACHE_CONNECTION}"
inventory list_cache_filled --list
expect_requests "${per_run}" "--list, cache on and empty"
inventory list_cached --list -vvvv
expect_requests 1 "--list, cache on and filled"
python check_list.py "${work}/list_cached.out" "${work}/list_cached.json"
diff -u "${work}/list_uncached.json" "${work}/list_cached.json"
inventory graph_cached --graph
expect_requests 1 "--graph, cache on and filled"
diff -u expected_graph.txt "${work}/graph_cached.out"

# The cache per token. The Password User's token: its own inventory, not the administrator's cache, then its own
# cache after one request.
CREDVAULT_AUTH_TOKEN="$(cat "${reader_token_file}")" inventory list_reader_filled --list
expect_requests 3 "--list as the Password User, the administrator's cache on disk"
python check_variants.py reader "${work}/list_reader_filled.out"
CREDVAULT_AUTH_TOKEN="$(cat "${reader_token_file}")" inventory list_reader_cached --list
expect_requests 1 "--list as the Password User, its cache filled"
python check_variants.py reader "${work}/list_reader_cached.out"
# A token the vault does not know, and the Password User's once the user is deleted: refused, not the cache.
CREDVAULT_AUTH_TOKEN=00000000-0000-4000-8000-000000000000 \
  inventory_refused list_unknown_token "Authentication failed" --list
expect_requests 1 "--list with an unknown token"
python simulator_requests.py "${config}" delete-user it-inv-reader
CREDVAULT_AUTH_TOKEN="$(cat "${reader_token_file}")" \
  inventory_refused list_reader_deleted "Authentication failed" --list
expect_requests 1 "--list as the deleted Password User, its cache on disk"

cache_files=("${ANSIBLE_INVENTORY_CACHE_CONNECTION}"/*)
[ "${#cache_files[@]}" = 2 ] || { echo "expected 2 cache files (two tokens): ${cache_files[*]##*/}" >&2; exit 1; }
no_secret_in "${cache_files[@]}"
for file in "${cache_files[@]}"; do
  mode=$(stat -c %a "${file}")
  [ "${mode}" = 600 ] || { echo "the cache file ${file##*/} is ${mode}, not 600" >&2; exit 1; }
done

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
echo "inventory_vault_resources: graph, list, custom fields, no details, cache off and on (1 request cached,"\
  "per token, refused tokens, files 0600), no secret, playbook checked"
