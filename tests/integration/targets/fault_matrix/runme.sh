#!/usr/bin/env bash
# The fault matrix against the default simulator, in one ansible-playbook run (see fault_matrix.yml); the table goes
# to the output and to ${OUTPUT_DIR}/fault_matrix.md. The simulator_api lookup is setup_simulator's.
set -eu
# A failing command inside $(...) fails the script too (bash does not carry set -e into command substitutions).
shopt -s inherit_errexit

ANSIBLE_LOOKUP_PLUGINS="${PWD}/../setup_simulator/lookup_plugins" ansible-playbook -i localhost, -c local \
  -e 'ansible_python_interpreter={{ ansible_playbook_python }}' \
  -e @../../integration_config.yml fault_matrix.yml "$@"
