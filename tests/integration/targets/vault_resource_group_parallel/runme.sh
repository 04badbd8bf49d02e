#!/usr/bin/env bash
# Fifteen forks ensure the same resource group at the same time, two rounds of creating and deleting it;
# no fork may fail. The simulator serves the request after the group list two seconds late (latency faults), so
# that the forks act on a list read before another fork's write lands: each round is a real race, not a lucky
# ordering. The creations wait for the group's lock, so one fork creates it each round; the deletions race.
# cleanup.yml removes the faults, the group and the resource whatever happened. The plays set the faults and read the
# request log with setup_simulator's simulator_api lookup.
set -eux

run() {
  ANSIBLE_LOOKUP_PLUGINS="${PWD}/../setup_simulator/lookup_plugins" ansible-playbook -i inventory -f 15 \
    -e ansible_python_interpreter="$(command -v python)" \
    -e @../../integration_config.yml "$@"
}

trap 'run cleanup.yml' EXIT
run playbook.yml "$@"
