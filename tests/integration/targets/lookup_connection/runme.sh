#!/usr/bin/env bash
# How the lookups get their connection settings, against the default simulator:
# 1. the README's first example and its check task, as written there (playbooks/readme_example.yml and
#    tasks/readme_check.yml; a unit test compares them with README.md), the site's values as extra vars,
#    at -vvvv, with no secret in the output;
# 2. the same example as it was, with module_defaults only: the lookup fails naming the
#    ways to set the url and the token, and no_log hides the task's result but not that message;
# 3. blank CREDVAULT_* environment variables count as unset;
# 4. validate_certs false warns;
# 5. the token from a file (auth_token_file), as the Automation Platform credential type injects it: modules, a
#    lookup and a controller-side action use it, a file others can read is refused, an option wins over the
#    environment's file (playbooks/token_file.yml), at -vvvv with no token in the output;
# 6. the connecting guide's client-certificate play, as written there (playbooks/client_certificate.yml; a unit test
#    compares them), against the simulator that demands a client certificate (profile client_cert), its files in
#    one directory as the play expects, at -vvvv with no token in the output.
set -eu
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

config="$(pwd)/../../integration_config.yml"
work="${OUTPUT_DIR:-$(mktemp -d)}"
export COLUMNS=1000

# The site's values: the simulator's, and passwords for the example to store.
python - "${config}" "${work}/readme_vars.json" <<'PYTHON'
import json
import sys

with open(sys.argv[1], encoding="utf-8") as handle:
    sim = json.load(handle)["credvault_simulators"]["default"]
site = {"credvault_url": sim["url"], "credvault_ca_path": sim["ca_path"], "vault_api_token": sim["token"],
        "web01_root_password": "Readme-R00t-pw-7741!", "deploy_password": "Readme-Depl0y-pw-7742!"}
with open(sys.argv[2], "w", encoding="utf-8") as handle:
    json.dump(site, handle)
PYTHON

playbook() {
  ansible-playbook -i localhost, -c local -e "@${config}" -e ansible_python_interpreter="$(command -v python)" "$@"
}

secrets() {
  python -c 'import json, sys; v = json.load(open(sys.argv[1])); [print(v[k]) for k in ("vault_api_token", "web01_root_password", "deploy_password")]' \
    "${work}/readme_vars.json"
  echo "Token-F1le-pw-8812!" # playbooks/token_file.yml's password
  python -c 'import json, sys; print(json.load(open(sys.argv[1]))["credvault_simulators"]["client_cert"]["token"])' \
    "${config}"
}

no_secret_in() {
  ../setup_simulator/files/secrets_in.sh <(secrets) "$1"
}

run() {
  local log="${work}/lookup_connection.$1.log"
  shift
  "$@" >"${log}" 2>&1 || {
    tail -n 60 "${log}" | grep -v -F -f <(secrets) >&2
    echo "${log##*/}: failed" >&2
    exit 1
  }
  no_secret_in "${log}"
  echo "${log}"
}

readme_log=$(run readme playbook -e "@${work}/readme_vars.json" playbooks/readme_example.yml playbooks/readme_check.yml -vvvv)
grep -Eq "localhost +: ok=[0-9]+ +changed=[1-9][0-9]* +unreachable=0 +failed=0" "${readme_log}"

# no_log hides the task's result; ansible-core 2.19 still prints the error above it (README.md says so).
old_log=$(run module_defaults_only playbook playbooks/module_defaults_only.yml)
grep -q '"censored": "the output has been hidden due to the fact that '"'no_log: true'"' was specified' "${old_log}"
grep -q "^\[ERROR\]: .*vault_password: url and auth_token are not set (lookups do not read module_defaults)" "${old_log}"

blank_log=$(run blank_environment env CREDVAULT_URL= CREDVAULT_AUTH_TOKEN= CREDVAULT_ORG_NAME= CREDVAULT_EDITION= \
  CREDVAULT_BUILD= CREDVAULT_VALIDATE_CERTS= CREDVAULT_CA_PATH= CREDVAULT_TIMEOUT= CREDVAULT_RETRIES= \
  ansible-playbook -i localhost, -c local -e "@${config}" -e ansible_python_interpreter="$(command -v python)" \
  playbooks/blank_environment.yml)
warnings=$(grep -c "validate_certs is false" "${blank_log}" || true)
if [ "${warnings}" != 1 ]; then
  echo "expected one validate_certs warning (from the task that sets it false), got ${warnings}" >&2
  exit 1
fi
grep -q "vault_password: validate_certs is false, so the vault's TLS certificate is not verified" "${blank_log}"
sim_value() {
  python -c 'import json, sys; print(json.load(open(sys.argv[1]))["credvault_simulators"]["default"][sys.argv[2]])' \
    "${config}" "$1"
}
token_file="${work}/vault.token"
(umask 077 && sim_value token >"${token_file}")
# The environment the Automation Platform credential type gives a job: the token's file, no token variable.
token_file_playbook() (
  unset CREDVAULT_AUTH_TOKEN
  CREDVAULT_URL="$(sim_value url)"
  CREDVAULT_CA_PATH="$(sim_value ca_path)"
  export CREDVAULT_AUTH_TOKEN_FILE="${token_file}" CREDVAULT_URL CREDVAULT_CA_PATH
  playbook playbooks/token_file.yml -vvvv
)
token_log=$(run token_file token_file_playbook)
grep -Eq "localhost +: ok=[0-9]+ +changed=[1-9][0-9]* +unreachable=0 +failed=0" "${token_log}"
# The guide's play names the files of a directory (vault_files): the client_cert simulator's, copied there.
certificate_files="${work}/credvault-files"
mkdir -p "${certificate_files}"
client_cert_url="$(python - "${config}" "${certificate_files}" <<'PYTHON'
import json
import os
import shutil
import sys

sim = json.load(open(sys.argv[1], encoding="utf-8"))["credvault_simulators"]["client_cert"]
for key, name in (("ca_path", "ca.pem"), ("client_cert", "client.pem"), ("client_key", "client-key.pem")):
    shutil.copyfile(sim[key], os.path.join(sys.argv[2], name))
os.chmod(os.path.join(sys.argv[2], "client-key.pem"), 0o600)
with open(os.open(os.path.join(sys.argv[2], "token"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as handle:
    handle.write(sim["token"])
print(sim["url"])
PYTHON
)"
client_cert_log=$(run client_certificate playbook -e vault_url="${client_cert_url}" -e vault_files="${certificate_files}" \
  playbooks/client_certificate.yml -vvvv)
grep -q '"msg": "primary server Running"' "${client_cert_log}"
echo "lookup_connection: README example, module_defaults only, blank environment, validate_certs, auth_token_file and the client certificate checked"
