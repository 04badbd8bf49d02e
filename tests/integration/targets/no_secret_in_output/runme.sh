#!/usr/bin/env bash
# Runs playbook.yml at -vvvv, which handles every kind of secret the collection
# touches, then checks that none of them appears anywhere in the output.
set -eu

config="$(pwd)/../../integration_config.yml"
log="${OUTPUT_DIR:-$(mktemp -d)}/no_secret_in_output.log"
codes="${OUTPUT_DIR:-$(mktemp -d)}/totp_codes"

ansible-playbook -i localhost, -c local -e "@${config}" -e "codes_file=${codes}" \
  -e ansible_python_interpreter="$(command -v python)" playbook.yml -vvvv >"${log}" 2>&1 || {
  tail -n 60 "${log}" | grep -v -F -f <(python -c 'import json,sys; [print(s) for s in json.load(open(sys.argv[1]))]' secrets.json)
  echo "playbook failed" >&2
  exit 1
}

grep -q "PLAY RECAP" "${log}"
grep -Eq "localhost +: ok=[0-9]+ +changed=[1-9]" "${log}"

token=$(python -c 'import json,sys; print(json.load(open(sys.argv[1]))["credvault_simulators"]["default"]["token"])' "${config}")
leaks=0
while IFS= read -r secret; do
  if grep -q -F -- "${secret}" "${log}"; then
    echo "LEAK: a secret of secrets.json appears in the -vvvv output" >&2
    leaks=$((leaks + 1))
  fi
done < <(python -c 'import json,sys; [print(s) for s in json.load(open(sys.argv[1]))]' secrets.json; echo "${token}")
while IFS= read -r code; do
  if grep -q -w -- "${code}" "${log}"; then
    echo "LEAK: a TOTP code appears in the -vvvv output" >&2
    leaks=$((leaks + 1))
  fi
done <"${codes}"

test "$(wc -l <"${codes}")" -ge 1
echo "checked $(wc -l <"${log}") lines of -vvvv output: ${leaks} leaks"
test "${leaks}" -eq 0
