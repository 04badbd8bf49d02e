#!/usr/bin/env bash
# Runs every playbooks/<name>.yml at -vvvv; together they handle every kind of
# secret the collection touches. Then checks that no secret appears anywhere in
# the output: the fixed ones of playbooks/<name>.secrets.json, every simulator's admin token,
# and those the vault generated during the run, which a playbook appends to
# {{ generated_file }} (matched anywhere) or {{ codes_file }} (TOTP codes,
# matched as whole words).
set -eu

config="$(pwd)/../../integration_config.yml"
work="${OUTPUT_DIR:-$(mktemp -d)}"
codes="${work}/totp_codes"
generated="${work}/generated_secrets"
: >"${codes}"
: >"${generated}"

fixed_secrets() {
  python -c 'import glob, json; [print(s) for f in sorted(glob.glob("playbooks/*.secrets.json")) for s in json.load(open(f))]'
}

for playbook in playbooks/*.yml; do
  name=$(basename "${playbook}" .yml)
  log="${work}/no_secret_in_output.${name}.log"
  ansible-playbook -i localhost, -c local -e "@${config}" -e "codes_file=${codes}" -e "generated_file=${generated}" \
    -e ansible_python_interpreter="$(command -v python)" "${playbook}" -vvvv >"${log}" 2>&1 || {
    tail -n 60 "${log}" | grep -v -F -f <(fixed_secrets; cat "${generated}")
    echo "playbook ${playbook} failed" >&2
    exit 1
  }
  grep -q "PLAY RECAP" "${log}"
  grep -Eq "localhost +: ok=[0-9]+ +changed=[1-9]" "${log}"
done

tokens() {
  python -c 'import json,sys; [print(s["token"]) for s in json.load(open(sys.argv[1]))["credvault_simulators"].values()]' "${config}"
}
leaks=0
lines=0
for log in "${work}"/no_secret_in_output.*.log; do
  lines=$((lines + $(wc -l <"${log}")))
  while IFS= read -r secret; do
    if [ -n "${secret}" ] && grep -q -F -- "${secret}" "${log}"; then
      echo "LEAK: a secret appears in the -vvvv output of ${log##*/}" >&2
      leaks=$((leaks + 1))
    fi
  done < <(fixed_secrets; cat "${generated}"; tokens)
  while IFS= read -r code; do
    if grep -q -w -- "${code}" "${log}"; then
      echo "LEAK: a TOTP code appears in the -vvvv output of ${log##*/}" >&2
      leaks=$((leaks + 1))
    fi
  done <"${codes}"
done

test "$(wc -l <"${codes}")" -ge 1
echo "checked ${lines} lines of -vvvv output: ${leaks} leaks"
test "${leaks}" -eq 0
