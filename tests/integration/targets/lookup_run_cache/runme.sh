#!/usr/bin/env bash
# The run cache (run_cache) of the lookups, end to end: run_cache.yml proves one retrieval per secret and reason for
# a lookup in group_vars across forks, strategies, serial and plays, that TOTP codes are never cached and that a
# rotation within the run is seen; the run leaves no broker behind. killed.yml is a run killed with SIGKILL while its
# broker serves: a process outside the run is refused by the broker, which then ends with the run. The playbooks
# read the simulator's request log with setup_simulator's sim_requests lookup.
set -euxo pipefail
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

work="${OUTPUT_DIR:-$(mktemp -d)}/lookup_run_cache"
mkdir -p "${work}"
export ANSIBLE_LOOKUP_PLUGINS="${PWD}/../setup_simulator/lookup_plugins"
playbook=(ansible-playbook -i inventory -f 5 -e ansible_python_interpreter="$(command -v python)"
  -e @../../integration_config.yml)

# broker_of PID: the name of the run cache's broker of the run whose main process is PID, empty when there is none.
broker_of() {
  grep -o "@credvault-run-cache/$(id -u)/$1/[0-9]*" /proc/net/unix | head -n 1 || true
}

# gone PID: wait up to 10 s for the broker of run PID to end.
gone() {
  for _ in $(seq 50); do
    [[ -z "$(broker_of "$1")" ]] && return 0
    sleep 0.2
  done
  echo "the broker of run $1 is still there: $(broker_of "$1")" >&2
  return 1
}

"${playbook[@]}" -vvv run_cache.yml > "${work}/run_cache.log" 2>&1 &
run=$!
wait "${run}" || { cat "${work}/run_cache.log"; exit 1; }
gone "${run}"
# No secret in the output, at -vvv, though the play has no no_log.
if grep -e 'Rc-F1rst-pw-7731!' -e 'Rc-R0tated-pw-2208?' "${work}/run_cache.log"; then
  echo "a password of the run is in its output" >&2
  exit 1
fi

rm -f "${work}/release"
"${playbook[@]}" killed.yml -e release_file="${work}/release" > "${work}/killed.log" 2>&1 &
killed=$!
for _ in $(seq 150); do
  [[ -n "$(broker_of "${killed}")" ]] && break
  sleep 0.2
done
name="$(broker_of "${killed}")"
[[ -n "${name}" ]] || { cat "${work}/killed.log"; exit 1; }
# This shell's python is of the same user but not of that run: its connection is closed unanswered.
python - "${name#@}" <<'PYTHON'
import socket
import sys

outsider = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
outsider.settimeout(10)
outsider.connect("\0" + sys.argv[1])
try:
    outsider.sendall(b'{"op": "hello"}\n')
    answer = outsider.recv(4096)
except (BrokenPipeError, ConnectionResetError):  # closed before or after the question
    answer = b""
sys.exit("a process outside the run was answered: %r" % answer if answer else 0)
PYTHON
kill -9 "${killed}"
touch "${work}/release"
wait "${killed}" || true
gone "${killed}"
