#!/usr/bin/env bash
# Fifteen forks (fifteen hosts that run locally, -f 15) against one simulator, five scenarios, each run twice:
# different objects on one resource, the same object from every fork, the same deletion from every fork,
# vault_accounts with overlapping lists, and the same object of every other creating module from every fork. The
# first run converges, the second must report no change (but for the modules documented to report changed on every
# run); no fork may fail. Each run's recap and tally (requests, writes, connections) go to a table at the end
# (summarize.py), which also fails the target when a run had a failed fork, or a second run a change. cleanup.yml
# removes what the target made whatever happened. The plays read and reset the simulator with setup_simulator's
# simulator_api lookup.
set -euxo pipefail

work="${OUTPUT_DIR:-$(mktemp -d)}/parallel_forks"
mkdir -p "${work}"
scenarios=(different_objects same_object same_deletion overlapping_lists every_module)
# New names for what the API cannot delete (CSRs), the same in both runs and in cleanup.yml.
run_id="$(date +%s)${RANDOM}"

run() {
  ANSIBLE_LOOKUP_PLUGINS="${PWD}/../setup_simulator/lookup_plugins" ansible-playbook -i inventory -f 15 \
    -e ansible_python_interpreter="$(command -v python)" \
    -e forks_run_id="${run_id}" -e forks_certificate_file="${work}/forks-certificate.pem" \
    -e @../../integration_config.yml "$@"
}

trap 'run cleanup.yml' EXIT
for scenario in "${scenarios[@]}"; do
  for run_number in 1 2; do
    started="${SECONDS}"
    run "${scenario}.yml" -e run_number="${run_number}" -e tally_file="${work}/${scenario}-${run_number}.json" \
      | tee "${work}/${scenario}-${run_number}.log"
    echo "$((SECONDS - started))" > "${work}/${scenario}-${run_number}.seconds"
  done
done
python summarize.py "${work}" "${scenarios[@]}"
