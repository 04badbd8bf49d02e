#!/usr/bin/env bash
# Issue 15, access: a Password User's token against what is not shared with it, a share and its revoke, a locked
# user, and TLS verification failures. playbooks/access.yml asserts every case and writes the table
# case -> expected -> outcome to ${OUTPUT_DIR}/access_matrix.md, which is printed here.
# Issue 25: playbooks/approval.yml waits for an administrator's approval on the access_control profile.
set -eu
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

config="$(pwd)/../../integration_config.yml"
work="${OUTPUT_DIR:-$(mktemp -d)}"
tls_dir="$(mktemp -d)"
trap 'python ../setup_simulator/files/tls_server.py stop "${tls_dir}" >/dev/null; rm -rf "${tls_dir}"' EXIT

# A TLS server whose self-signed certificate names another host, to verify against 127.0.0.1 (host name mismatch).
python ../setup_simulator/files/tls_server.py make "${tls_dir}" not-the-vault.invalid >/dev/null
python ../setup_simulator/files/tls_server.py serve "${tls_dir}" 120 &
for _ in $(seq 50); do test -e "${tls_dir}/port" && break; sleep 0.1; done

ansible-playbook -i localhost, -c local -e "@${config}" -e ansible_python_interpreter="$(command -v python)" \
  -e "matrix_file=${work}/access_matrix.md" -e "token_file=${work}/it-access-reader.token" \
  -e "other_host_url=https://127.0.0.1:$(cat "${tls_dir}/port")" -e "other_host_ca=${tls_dir}/server.pem" \
  playbooks/access.yml "$@"
cat "${work}/access_matrix.md"

# Issue 25: waiting for an approval, on the access_control profile (playbooks/approval.yml). Its async jobs go to a
# directory of this run: async_status reads them from there whatever HOME is (a fresh HOME in CI). The helper
# tasks it shares with the vault_password_request target talk to the simulator with the simulator_api lookup.
# Issue 36: the guide's give-back playbook (docs/examples/password_access/give_back.yml) runs as written, from each
# state its block can leave (approval.yml, case 5).
ANSIBLE_ASYNC_DIR="${work}/ansible_async" ANSIBLE_LOOKUP_PLUGINS="${PWD}/../setup_simulator/lookup_plugins" \
  ansible-playbook -i localhost, -c local -e "@${config}" \
  -e "give_back_playbook=$(../setup_simulator/files/example_path.sh password_access/give_back.yml)" \
  -e "give_back_dir=${work}" -e ansible_python_interpreter="$(command -v python)" playbooks/approval.yml "$@"
