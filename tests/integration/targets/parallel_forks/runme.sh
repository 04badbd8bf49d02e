#!/usr/bin/env bash
# Forks (hosts that all run locally, one fork each) against one simulator, five scenarios: different objects on one
# resource, the same object from every fork, the same deletion from every fork, vault_accounts with overlapping
# lists, and the same object of every other creating module from every fork. Each scenario has its number of forks
# and of runs (scenario:forks:runs below): fifteen converge the one resource, account and group of same_object, eight
# delete them; six elsewhere, where every fork's task costs a module run and six already race (the unit tests race
# sixteen processes on each lock and record). The first run converges and must leave exactly one of each object; a
# second run must report no change (but for the modules documented to report changed on every run). Two scenarios
# run twice: same_object (the fifteen forks find what they made) and every_module (the modules that cannot read
# their object back send it once per run, from one fork). In the others a second run has nothing to race: each
# fork finds its converged object as one process does, which each module's own target proves. No fork may fail.
# Each run's recap and tally (requests, writes, connections) go to a table at the end (summarize.py), which also
# fails the target when a run had a failed fork, or a second run a change. cleanup.yml removes what the target made
# whatever happened. The plays read and reset the simulator with setup_simulator's simulator_api lookup.
set -euxo pipefail
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

work="${OUTPUT_DIR:-$(mktemp -d)}/parallel_forks"
mkdir -p "${work}"
scenarios=(different_objects:6:1 same_object:15:2 same_deletion:8:1 overlapping_lists:6:1 every_module:6:2)
# New names for what the API cannot delete (CSRs), the same in both runs and in cleanup.yml.
run_id="$(date +%s)${RANDOM}"

# run FORKS PLAYBOOK ARGS...: the playbook with FORKS hosts in the group forks (inventory: node01 to node15).
run() {
  local forks="$1"
  shift
  ANSIBLE_LOOKUP_PLUGINS="${PWD}/../setup_simulator/lookup_plugins" ansible-playbook -i inventory -f "${forks}" \
    --limit "localhost:forks[0:$((forks - 1))]" -e forks_count="${forks}" \
    -e ansible_python_interpreter="$(command -v python)" \
    -e forks_run_id="${run_id}" -e forks_certificate_file="${work}/forks-certificate.pem" \
    -e @../../integration_config.yml "$@"
}

trap 'run 15 cleanup.yml' EXIT
for entry in "${scenarios[@]}"; do
  IFS=: read -r scenario forks runs <<< "${entry}"
  for run_number in $(seq "${runs}"); do
    started="${SECONDS}"
    run "${forks}" "${scenario}.yml" -e run_number="${run_number}" -e tally_file="${work}/${scenario}-${run_number}.json" \
      | tee "${work}/${scenario}-${run_number}.log"
    echo "$((SECONDS - started))" > "${work}/${scenario}-${run_number}.seconds"
  done
done
python summarize.py "${work}" "${scenarios[@]}"
