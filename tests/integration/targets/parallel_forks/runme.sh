#!/usr/bin/env bash
# Twenty forks (twenty hosts that run locally, -f 20) against one simulator, four scenarios, each run twice:
# different objects on one resource, the same object from every fork, the same deletion from every fork, and
# vault_accounts with overlapping lists. The first run converges, the second must report no change; no fork may
# fail. Each run's recap and tally (requests, writes, connections) go to a table at the end (summarize.py), which
# also fails the target when a run had a failed fork, or a second run a change. cleanup.yml removes what the target
# made whatever happened.
set -euxo pipefail

work="${OUTPUT_DIR:-$(mktemp -d)}/parallel_forks"
mkdir -p "${work}"
scenarios=(different_objects same_object same_deletion overlapping_lists)

run() {
  ansible-playbook -i inventory -f 20 \
    -e ansible_python_interpreter="$(command -v python)" \
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
