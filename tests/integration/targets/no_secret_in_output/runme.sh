#!/usr/bin/env bash
# Runs every playbooks/<name>.yml at -vvvv with ANSIBLE_LOG_PATH set, all in one ansible-playbook run (one playbook
# importing them, written here, so that a new file of playbooks/ joins by itself); together they handle every kind of
# secret the collection touches, and run every module and lookup in normal, check, diff and failing tasks.
# Then checks that no secret appears anywhere in stdout, stderr or the log: the fixed ones of
# playbooks/<name>.secrets.json, every simulator's admin token, and those the vault generated during the run,
# which a playbook appends to {{ generated_file }} (matched anywhere) or {{ codes_file }} (TOTP codes, matched
# as whole words). Last, summarize_secrets.py cuts the output into one slice per task (recorded by
# callback_plugins/secret_census.py), writes the table module x mode -> lines scanned, leaks to
# ${OUTPUT_DIR}/secrets_table.md and fails on any leak or on a mode a module or lookup was not run in.
set -eu
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

here="$(pwd)"
config="${here}/../../integration_config.yml"
work="${OUTPUT_DIR:-$(mktemp -d)}"
codes="${work}/totp_codes"
generated="${work}/generated_secrets"
all_secrets="${work}/all_secrets"
: >"${codes}"
: >"${generated}"
rm -f "${work}"/no_secret_in_output.*

fixed_secrets() {
  python -c 'import glob, json; [print(s) for f in sorted(glob.glob("playbooks/*.secrets.json")) for s in json.load(open(f))]'
}

site="${work}/no_secret_in_output.site.yml"
for playbook in playbooks/*.yml; do
  printf -- '- name: %s\n  ansible.builtin.import_playbook: %s\n' "$(basename "${playbook}" .yml)" "${here}/${playbook}"
done >"${site}"
out="${work}/no_secret_in_output.all"
ANSIBLE_LOG_PATH="${out}.log" ANSIBLE_CALLBACK_PLUGINS="${here}/callback_plugins" \
  ANSIBLE_LOOKUP_PLUGINS="${here}/../setup_simulator/lookup_plugins" \
  ANSIBLE_CALLBACKS_ENABLED=secret_census SECRET_CENSUS_FILE="${out}.census.jsonl" \
  ansible-playbook -i localhost, -c local -e "@${config}" -e "codes_file=${codes}" -e "generated_file=${generated}" \
  -e ansible_python_interpreter="$(command -v python)" "${site}" -vvvv >"${out}.stdout" 2>"${out}.stderr" || {
  tail -n 60 "${out}.stdout" "${out}.stderr" | grep -v -F -f <(fixed_secrets; cat "${generated}")
  echo "the playbooks of playbooks/ failed" >&2
  exit 1
}
grep -q "PLAY RECAP" "${out}.stdout"
grep -Eq "localhost +: ok=[0-9]+ +changed=[1-9]" "${out}.stdout"

tokens() {
  python -c 'import json,sys; [print(s["token"]) for s in json.load(open(sys.argv[1]))["credvault_simulators"].values()]' "${config}"
}
{ fixed_secrets; cat "${generated}"; tokens; } | grep -v '^$' >"${all_secrets}"
tr -d ' \t' <"${all_secrets}" | grep -v '^$' >"${all_secrets}.squeezed"
leaks=0
lines=0
# One grep per file for all the secrets (-F: fixed strings; TOTP codes -w: whole words); counts distinct ones found.
# A second grep reads the file without its whitespace: Ansible wraps a warning to the terminal's width, at spaces
# and after hyphens, so a secret a warning leaked may be split over two lines.
for output in "${work}"/no_secret_in_output.*.{stdout,stderr,log}; do
  lines=$((lines + $(wc -l <"${output}")))
  found=$({
    grep -o -F -f "${all_secrets}" -- "${output}"
    tr -d '[:space:]' <"${output}" | grep -o -F -f "${all_secrets}.squeezed"
  } | tr -d ' \t' | sort -u | wc -l)
  found_codes=$(grep -o -w -F -f "${codes}" -- "${output}" | sort -u | wc -l)
  if [ "$((found + found_codes))" -gt 0 ]; then
    echo "LEAK: ${found} secret(s) and ${found_codes} TOTP code(s) appear in ${output##*/}" >&2
    leaks=$((leaks + found + found_codes))
  fi
done

test "$(wc -l <"${codes}")" -ge 1
echo "checked ${lines} lines of -vvvv stdout, stderr and log: ${leaks} leaks"
test "${leaks}" -eq 0
# The installed collection (ansible-test's copy of the target holds no plugins), whose plugins/ the table must cover.
collection="$(ansible-galaxy collection list credvault.vault --format json |
  python -c 'import json, sys; print(next(iter(json.load(sys.stdin))) + "/credvault/vault")')"
python summarize_secrets.py "${work}" "${collection}" "${all_secrets}" "${codes}"
