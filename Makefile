# Build and test pipeline of the credvault.vault collection.
#
# Every target installs what it needs itself: the tools go into .venv (from
# requirements-dev.txt plus the simulator in tests/simulator), everything else
# that is generated goes into .build. Run `make help` for the targets.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:
.NOTPARALLEL:
MAKEFLAGS += --no-builtin-rules --no-print-directory

# The newest Python here runs the full suite: 3.13 with ansible-core 2.21 (requirements-dev.txt); where only
# 3.11 exists, ansible-core 2.19. Found as python3.X on the PATH or in pyenv (tests/utils/interpreters.py).
ifeq ($(origin PYTHON),undefined)
PYTHON := $(shell python3 tests/utils/interpreters.py --newest 3.13 3.12 3.11 2> /dev/null || echo python3)
endif
TEST_PYTHON := $(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')
# The Python the full suite must run on; with REQUIRE_ALL_PYTHONS=1 (CI) any other one is a failure, and so is a
# version of the matrix whose Python is missing. Without it, what cannot run here is listed as not run.
NEWEST_PYTHON := 3.13
REQUIRE_ALL_PYTHONS ?=

VENV := $(CURDIR)/.venv
VENV_STAMP := $(VENV)/.installed-$(TEST_PYTHON)
BUILD := $(CURDIR)/.build
# ansible-test only works inside an ansible_collections/<namespace>/<name>
# directory and resolves symlinks, so the tests run on a copy of the sources.
COPY := $(BUILD)/ansible_collections/credvault/vault
SIMULATOR_LOGS := $(BUILD)/simulator-logs
INTEGRATION_PROFILES := default,strict,edition_b,old_a,access_control,real,client_cert
# Names of integration targets to run (default: all of them).
INTEGRATION_TARGETS ?=
# How many ansible-test integration runs at once (2 suits a 2-core machine).
INTEGRATION_JOBS ?= 2
INTEGRATION_JOBS_DIR := $(BUILD)/integration-jobs

# ansible-test downloads a pip bootstrap script from the internet unless it is in this cache; the file name
# follows the pip version each ansible-core uses (2.16-2.17, 2.18-2.19, 2.20 and later).
ANSIBLE_TEST_CACHE := $(HOME)/.ansible/test/cache
ANSIBLE_TEST_GET_PIP := $(addprefix $(ANSIBLE_TEST_CACHE)/,get_pip_23_1_2.py get_pip_24_2.py get_pip_25_2.py)

# make test runs `make SKIP_SETUP=1 <stage>` for its stages side by side, once venv and collection are made.
SETUP := $(if $(SKIP_SETUP),,venv collection)

# The venv's tools come first, so that ansible-test finds the venv's ansible.
export PATH := $(VENV)/bin:$(PATH)
export PIP_DISABLE_PIP_VERSION_CHECK := 1
unexport VIRTUAL_ENV PYTHONPATH ANSIBLE_COLLECTIONS_PATH ANSIBLE_COLLECTIONS_PATHS ANSIBLE_CONFIG

# ansible-test walks up from the working directory looking for a .git to list
# the sources; the copy lives in an ignored directory of this repository, so
# tell ansible-test where the content is (it then lists the files on disk).
ANSIBLE_TEST := env ANSIBLE_TEST_CONTENT_ROOT=$(COPY) ansible-test

.PHONY: help venv collection units sanity lint format examples integration molecule molecule-tools demo package-check \
  simulator-guide-check certification-check awx-plugin-check eda-check docs docs-browser docs-check bench bench-smoke smoke runner-check matrix main-python system-packages test check \
  new-module clean

help:
	@echo 'make demo         build and install the collection, run docs/examples/demo.yml against a simulator'
	@echo 'make test         venv, collection, units, lint, sanity, package-check, awx-plugin-check, docs-check,'
	@echo '                  bench-smoke, simulator-guide-check, eda-check, integration, molecule, smoke, runner-check,'
	@echo '                  matrix'
	@echo '                  (stops at the first failure)'
	@echo 'make venv         create .venv with the tools from requirements-dev.txt and the simulator'
	@echo 'make collection   copy the sources to $(COPY:$(CURDIR)/%=%)'
	@echo 'make check        the inner loop in its own light venv (.build/check-venv): ruff format --check, ruff check,'
	@echo '                  the unit tests but those marked slow (the fault suite, the module scenarios, real'
	@echo '                  processes and timeouts), the property tests on a tenth as many examples'
	@echo '                  (UNIT_TESTS=path[::test] runs those named, slow or not)'
	@echo 'make units        pytest of tests/unit (all of it), tests/tooling (the tests of make'"'"'s own scripts and the'
	@echo '                  benchmark'"'"'s report) and tests/simulator/tests'
	@echo 'make lint         ruff format --check, ruff check, ansible-lint --profile production, antsibull-changelog lint'
	@echo 'make format       apply ruff format and ruff check --fix (the one style of ruff.toml)'
	@echo 'make examples     write each plugin'"'"'s EXAMPLES to its integration target'"'"'s tasks/examples.yml'
	@echo 'make sanity       ansible-test sanity --venv --python $(TEST_PYTHON)'
	@echo 'make package-check'
	@echo '                  build the tarball; check its files, galaxy-importer, ansible-builder introspect and'
	@echo '                  create; run the demo from the installed tarball (galaxy-importer in its own venv)'
	@echo 'make awx-plugin-check'
	@echo '                  the AWX/AAP credential plugin (extensions/awx_credential_plugin): its backend against'
	@echo '                  simulators, its inputs against awx-plugins-interfaces, its wheel in a clean venv'
	@echo 'make simulator-guide-check'
	@echo '                  run the shell commands of docs/docsite/rst/guide_testing_without_vault.rst as written:'
	@echo '                  the simulator'"'"'s wheel from the installed collection in a new venv, seeded, a playbook'
	@echo 'make eda-check    the Event-Driven Ansible example (docs/examples/eda) end to end: ansible-rulebook with the'
	@echo '                  vault_audit source against a simulator (own venv; Java: Debian'"'"'s openjdk-17-jre-headless)'
	@echo 'make docs         the antsibull-docs Sphinx site (plugin pages and docs/docsite guides) into'
	@echo '                  $(DOCS_HTML:$(CURDIR)/%=%), warnings as errors (tools in their own venv)'
	@echo 'make docs-check   antsibull-docs lint-collection-docs --plugin-docs, make docs, and a headless Chromium'
	@echo '                  check of the site (installs Debian'"'"'s chromium if missing: needs root then)'
	@echo 'make integration  ansible-test integration --venv --python $(TEST_PYTHON) with simulators running'
	@echo '                  (INTEGRATION_TARGETS="t1 t2" runs only those; INTEGRATION_JOBS=N runs N at once;'
	@echo '                  BUILD=DIR copies elsewhere)'
	@echo 'make molecule     molecule test of extensions/molecule (the linux_remote_reset and host_credentials roles'
	@echo '                  end to end over a private sshd on 127.0.0.1; needs root; installs openssh-server, sudo'
	@echo '                  and sshpass if missing; user_role_example: a user'"'"'s role against a seeded simulator)'
	@echo 'make bench        the performance benchmark: its own simulators with BENCH_LATENCY_MS (default 20) per'
	@echo '                  request; writes docs/benchmark/results.md and lookup.png (BENCH_TERMS, BENCH_ACCOUNTS,'
	@echo '                  BENCH_SCALE: resources of the simulator at scale; BENCH_BURST: the audit records of the'
	@echo '                  event source'"'"'s burst, default 10000);'
	@echo '                  its host credentials part logs in to a private sshd: needs root and openssh-server'
	@echo 'make new-module NAME=vault_<thing>[_info] [OPERATION=<catalogue key>] [DESCRIPTION=...]'
	@echo '                  write every piece a module needs: its declaration tests/modules/<module>.yml, from'
	@echo '                  which tests/utils/module_facts.py writes the shared files (tests/utils/new_module.py;'
	@echo '                  the checklist is tests/unit/test_module_checklist.py)'
	@echo 'make clean        remove .venv, .build and caches'

venv: $(VENV_STAMP)

# $(call python_venv,DIR,REQUIREMENTS): the venv DIR on $(PYTHON) with REQUIREMENTS and the simulator. A venv of
# another Python (an older one, or PYTHON=... given) is made again.
define python_venv
	if [ -x $(1)/bin/python ] && ! $(1)/bin/python -c 'import sys; sys.exit(sys.version_info[:2] != tuple(map(int, "$(TEST_PYTHON)".split("."))))'; then \
	  rm -rf $(1); fi
	test -x $(1)/bin/python || $(PYTHON) -m venv $(1)
	$(1)/bin/python -m pip install --progress-bar off -r $(2)
	$(1)/bin/python -m pip install --progress-bar off -e tests/simulator
	touch $@
endef

# requirements-dev.txt includes requirements-check.txt, which includes tests/unit/requirements.txt.
CHECK_REQUIREMENTS := requirements-check.txt tests/unit/requirements.txt tests/simulator/pyproject.toml

$(VENV_STAMP): requirements-dev.txt $(CHECK_REQUIREMENTS)
	$(call python_venv,$(VENV),requirements-dev.txt)

# make check's own venv: what the unit tests need and ruff (requirements-check.txt), none of .venv's tools.
CHECK_VENV := $(BUILD)/check-venv
CHECK_STAMP := $(CHECK_VENV)/.installed-$(TEST_PYTHON)

$(CHECK_STAMP): $(CHECK_REQUIREMENTS)
	$(call python_venv,$(CHECK_VENV),requirements-check.txt)

# A fresh copy of the tracked and untracked-but-not-ignored files. Stale files
# go; tests/output (ansible-test's venvs and results) stays to keep reruns fast.
collection: | $(ANSIBLE_TEST_GET_PIP)
	mkdir -p $(COPY)
	find $(COPY) -mindepth 1 -maxdepth 1 ! -name tests -exec rm -rf {} +
	if [ -d $(COPY)/tests ]; then find $(COPY)/tests -mindepth 1 -maxdepth 1 ! -name output -exec rm -rf {} +; fi
	git ls-files -z --cached --others --exclude-standard \
	  | while IFS= read -r -d '' f; do if [[ -e $$f || -L $$f ]]; then printf '%s\0' "$$f"; fi; done \
	  | tar --null --no-recursion -T - -cf - | tar -xf - -C $(COPY)
	@echo "collection copied to $(COPY)"

$(ANSIBLE_TEST_CACHE)/get_pip_%.py: tests/utils/get_pip_offline.py
	mkdir -p $(@D)
	cp tests/utils/get_pip_offline.py $@

# pytest's temporary files stay under .build (one folder per run, so that runs at once do not share one), not in
# the system's /tmp/pytest-of-<user>, which pytest leaves behind. pytest makes the folder, not its parent.
PYTEST_TEMP := $(BUILD)/pytest

# The unit tests, all of them (those marked slow too), with the property tests' full profile; one file or test:
# make units UNIT_TESTS=tests/unit/plugins/module_utils/test_client.py (also for make check).
UNIT_TESTS ?= tests/unit
# UNIT_TESTS left at its default: the whole suite, and not tests picked by hand.
ALL_UNIT_TESTS := $(filter tests/unit,$(UNIT_TESTS))

# Two runs: the simulator's tests use the simulator's own pytest configuration (tests/simulator/pyproject.toml); the
# unit tests, with the tests of the repository's tooling (tests/tooling) beside them, import the collection as
# ansible_collections.credvault.vault from the copy.
units: $(SETUP)
	mkdir -p $(PYTEST_TEMP)
	cd $(COPY) && PYTHONPATH=$(BUILD) python -m pytest -p no:cacheprovider --basetemp $(PYTEST_TEMP)/units \
	  --rootdir $(COPY) $(UNIT_TESTS) $(if $(ALL_UNIT_TESTS),tests/tooling)
	$(if $(ALL_UNIT_TESTS),cd $(COPY) && python -m pytest -p no:cacheprovider \
	  --basetemp $(PYTEST_TEMP)/simulator tests/simulator/tests)

sanity: $(SETUP)
	cd $(COPY) && $(ANSIBLE_TEST) sanity --venv --python $(TEST_PYTHON)

lint: venv
	ruff format --check --diff .
	ruff check .
	ansible-lint --profile production
	antsibull-changelog lint

# Applies the repository's one style (ruff.toml) to every Python file.
format: venv
	ruff format .
	ruff check --fix .

# The integration targets run the documented examples: tasks/examples.yml is each plugin's EXAMPLES, written here
# (tests/unit/plugins/modules/test_examples.py fails when they differ).
examples:
	python tests/utils/refresh_examples.py

# The targets run as INTEGRATION_JOBS ansible-test runs at once, each in its own
# copy of the collection under $(INTEGRATION_JOBS_DIR) with its own simulators
# (tests/utils/parallel_integration.py). ansible-test hands each run's
# tests/integration/integration_config.yml to role targets as a vars file;
# runme.sh targets read it themselves (see README.md).
integration: $(SETUP)
	python $(CURDIR)/tests/utils/parallel_integration.py --jobs $(INTEGRATION_JOBS) \
	  --content $(COPY) --work-dir $(INTEGRATION_JOBS_DIR) \
	  --profiles $(INTEGRATION_PROFILES) --log-dir $(SIMULATOR_LOGS) \
	  --targets "$(INTEGRATION_TARGETS)" \
	  -- ansible-test integration --venv --python $(TEST_PYTHON)

# `make demo`, package-check and certification-check build the tarball into DIR/dist and install it into
# DIR/collections (each its own DIR, as they run side by side in make test); the first two run
# docs/examples/demo.yml from that installed copy against a simulator.
define build_and_install_tarball
	rm -rf $(1)/dist $(1)/collections
	ansible-galaxy collection build --output-path $(1)/dist .
	ANSIBLE_COLLECTIONS_PATH=$(1)/collections \
	  ansible-galaxy collection install --force -p $(1)/collections $(1)/dist/credvault-vault-*.tar.gz
endef

# The demo runs twice against one simulator: the second run shows what stays unchanged.
define run_installed_demo
	ANSIBLE_COLLECTIONS_PATH=$(1)/collections python tests/utils/with_simulators.py \
	  --profiles default --log-dir $(1)/simulator-logs -- sh -c 'for run in first second; do \
	  echo "demo: the $$run run of docs/examples/demo.yml"; \
	  ansible-playbook -i localhost, -c local -e ansible_python_interpreter=$(VENV)/bin/python \
	  -e token_dir=$(1)/demo $(1)/collections/ansible_collections/credvault/vault/docs/examples/demo.yml || exit 1; \
	  done'
endef

demo: venv
	$(call build_and_install_tarball,$(BUILD))
	$(call run_installed_demo,$(BUILD))

# The partner certification checks: galaxy-importer (without its ansible-test step, which needs a container
# engine) on ansible-core 2.16 with Python 3.12, failing on any warning, and requirements.txt with lower bounds only.
# (Their other steps are the matrix's sanity of 2.16 and `make lint`'s ansible-lint production profile.)
# galaxy-importer pins attrs<24, which would downgrade the attrs of .venv (ansible-lint's jsonschema), so it gets its
# own venv, made like .venv from the same package index; ansible-builder comes with it.
ifeq ($(origin IMPORTER_PYTHON),undefined)
IMPORTER_PYTHON := $(shell python3 tests/utils/interpreters.py 3.12 2> /dev/null)
endif
IMPORTER_VENV := $(BUILD)/importer-venv
IMPORTER_STAMP := $(IMPORTER_VENV)/.installed
IMPORTER_REQUIREMENTS := 'galaxy-importer>=0.4.44,<0.5' 'ansible-builder>=3.2,<4' \
  'ansible-core>=2.16,<2.17' 'ansible-lint>=26.10,<27'
PACKAGE_CHECKS := $(BUILD)/package-check
CERTIFICATION_CHECKS := $(BUILD)/certification-check

$(IMPORTER_STAMP): Makefile
	test -x $(IMPORTER_VENV)/bin/python || $(IMPORTER_PYTHON) -m venv $(IMPORTER_VENV)
	$(IMPORTER_VENV)/bin/python -m pip install --progress-bar off $(IMPORTER_REQUIREMENTS)
	touch $@

# The tarball is what is tested: its file list (tests/utils/check_tarball.py), ansible-builder introspect of the
# installed copy finding every requirement of requirements.txt, ansible-builder create of
# docs/execution-environment.yml, and the demo from the installed copy. ansible-builder is .venv's.
package-check: venv
	$(call build_and_install_tarball,$(PACKAGE_CHECKS))
	python tests/utils/check_tarball.py $(PACKAGE_CHECKS)/dist/credvault-vault-*.tar.gz
	ansible-builder introspect --write-pip $(PACKAGE_CHECKS)/ee-python.txt $(PACKAGE_CHECKS)/collections
	for requirement in $$(sed -e 's/#.*//' -e 's/[<>=!~; ].*//' requirements.txt); do \
	  grep -q "^$$requirement\b.*from collection credvault.vault" $(PACKAGE_CHECKS)/ee-python.txt \
	  || { echo "ansible-builder introspect did not find $$requirement" >&2; exit 1; }; done
	ansible-builder create --file docs/execution-environment.yml --context $(PACKAGE_CHECKS)/ee-context > /dev/null
	grep -q 'name: credvault.vault' $(PACKAGE_CHECKS)/ee-context/_build/requirements.yml
	$(call run_installed_demo,$(PACKAGE_CHECKS))

certification-check: venv
	@if [ -z "$(IMPORTER_PYTHON)" ]; then \
	  echo 'certification-check: not run: galaxy-importer runs on Python 3.12, which is not on the PATH or in pyenv'; \
	  exit $(if $(REQUIRE_ALL_PYTHONS),1,3); fi
	$(MAKE) $(IMPORTER_STAMP)
	if grep -nE '^[^#]*(==|<|~=|!=)' requirements.txt; then \
	  echo 'requirements.txt: lower bounds only (>=), as the certification asks' >&2; exit 1; fi
	$(call build_and_install_tarball,$(CERTIFICATION_CHECKS))
	cd $(CERTIFICATION_CHECKS) && PATH=$(IMPORTER_VENV)/bin:$$PATH GALAXY_IMPORTER_RUN_ANSIBLE_TEST=false \
	  $(IMPORTER_VENV)/bin/python -m galaxy_importer.main dist/credvault-vault-*.tar.gz > importer.log 2>&1 \
	  || { cat $(CERTIFICATION_CHECKS)/importer.log; echo 'galaxy-importer failed' >&2; exit 1; }
	if grep -E '^(WARNING|ERROR|CRITICAL):' $(CERTIFICATION_CHECKS)/importer.log; then \
	  echo 'galaxy-importer warned about the tarball (see above)' >&2; exit 1; fi
	@echo "galaxy-importer (ansible-core 2.16, Python 3.12): $$(tail -n 1 $(CERTIFICATION_CHECKS)/importer.log)"

# The AWX/AAP credential plugin's tests (extensions/awx_credential_plugin/tests) run in the copy, with the copy and
# the plugin's sources on PYTHONPATH, against a default and a strict simulator; awx-plugins-interfaces (no
# dependencies of its own that .venv lacks) goes into a directory of its own, not into .venv. test_wheel.py builds
# the wheel and installs it into a new virtual environment with requests only.
AWX_PLUGIN := extensions/awx_credential_plugin
AWX_PLUGIN_INTERFACES := $(BUILD)/awx-plugin/interfaces

awx-plugin-check: $(SETUP)
	rm -rf $(AWX_PLUGIN_INTERFACES)
	python -m pip install --progress-bar off --quiet --no-deps --target $(AWX_PLUGIN_INTERFACES) \
	  'awx-plugins-interfaces==0.0.1a5'
	mkdir -p $(PYTEST_TEMP)
	cd $(COPY) && python $(CURDIR)/tests/utils/with_simulators.py --profiles default,strict,client_cert \
	  --log-dir $(SIMULATOR_LOGS) -- env PYTHONPATH=$(BUILD):$(AWX_PLUGIN_INTERFACES):$(COPY)/$(AWX_PLUGIN)/src \
	  python -m pytest -p no:cacheprovider --basetemp $(PYTEST_TEMP)/awx-plugin --rootdir $(AWX_PLUGIN) -q \
	  $(AWX_PLUGIN)/tests

# The guide "Testing your playbooks without a vault" runs as written (tests/utils/check_guide_commands.py): its shell
# blocks, with its captioned seed file and playbook, in an empty directory with the collection installed from its
# tarball, .venv's ansible commands and nothing else of .venv. They build the simulator's wheel from the installed
# collection (it must carry the collection's version) and install it into a new venv; pip's cache keeps that cheap.
simulator-guide-check: $(SETUP)
	python tests/utils/check_guide_commands.py --guide docs/docsite/rst/guide_testing_without_vault.rst \
	  --collection $(COPY) --ansible-bin $(VENV)/bin --work-dir $(BUILD)/simulator-guide-check --pid-file vault.pid \
	  --expect-file wheels/credvault_vault_simulator-$(shell sed -n 's/^version: *//p' galaxy.yml)-py3-none-any.whl

# The Event-Driven Ansible example (docs/examples/eda) end to end (tests/eda): ansible-rulebook runs the example
# rulebook from the copy installed in $(BUILD) against a default simulator (the spec dialect), then against a real
# one (the dialect of recorded real servers); the test changes a password through the collection and waits for the
# playbook to write it into a file, across a restart of ansible-rulebook.
# ansible-rulebook, with the ansible-core it needs beside it (its ansible-galaxy finds the collection) and requests
# (the source's client), gets its own venv on Python 3.12 (measured there; the importer's Python); Java comes from
# SYSTEM_PACKAGES. The test itself runs in .venv, which has the simulator and pytest; ansible-rulebook's output of
# each start is kept under $(BUILD)/eda-check.
EDA_PYTHON := $(IMPORTER_PYTHON)
EDA_VENV := $(BUILD)/eda-venv
EDA_STAMP := $(EDA_VENV)/.installed
EDA_REQUIREMENTS := 'ansible-rulebook==1.3.2' 'ansible-core>=2.21,<2.22' 'requests>=2.34,<3'

$(EDA_STAMP): Makefile
	test -x $(EDA_VENV)/bin/python || $(EDA_PYTHON) -m venv $(EDA_VENV)
	$(EDA_VENV)/bin/python -m pip install --progress-bar off $(EDA_REQUIREMENTS)
	touch $@

eda-check: $(SETUP)
	@if [ -z "$(EDA_PYTHON)" ]; then \
	  echo 'eda-check: not run: ansible-rulebook runs on Python 3.12, which is not on the PATH or in pyenv'; \
	  exit $(if $(REQUIRE_ALL_PYTHONS),1,3); fi
	$(MAKE) $(EDA_STAMP)
	cd $(COPY) && python $(CURDIR)/tests/utils/with_simulators.py --profiles default,real \
	  --log-dir $(SIMULATOR_LOGS)/eda-check -- env EDA_VENV=$(EDA_VENV) ANSIBLE_COLLECTIONS_PATH=$(BUILD) \
	  python -m pytest -p no:cacheprovider --rootdir tests/eda --basetemp $(BUILD)/eda-check -q --tb=short tests/eda

# The documentation site: antsibull-docs writes a Sphinx project (sphinx-init) and the plugin pages of the
# copy (collection, with the guides of docs/docsite), finish_docsite.py puts in the front page, the event sources
# and the texts antsibull-docs gets wrong, sphinx-build makes it HTML with warnings as errors. Sphinx
# wants an older docutils than .venv has, so the tools get their own venv. The pages are generated afresh each
# time and sphinx-build reads them all (-E): an incremental build would not repeat the warnings of unchanged pages.
DOCS := $(BUILD)/docs
DOCS_HTML := $(DOCS)/html
DOCS_SPHINX := $(DOCS)/sphinx
DOCS_VENV := $(BUILD)/docs-venv
DOCS_STAMP := $(DOCS_VENV)/.installed
DOCS_TOOLS := PATH=$(DOCS_VENV)/bin:$$PATH ANSIBLE_COLLECTIONS_PATH=$(BUILD)

$(DOCS_STAMP): docs/docsite/requirements.txt
	test -x $(DOCS_VENV)/bin/python || $(PYTHON) -m venv $(DOCS_VENV)
	$(DOCS_VENV)/bin/python -m pip install --progress-bar off -r docs/docsite/requirements.txt
	touch $@

# One shell command, so that docs-check can run it beside the lint.
BUILD_DOCSITE := rm -rf $(DOCS_SPHINX) $(DOCS_HTML) && mkdir -p $(DOCS_SPHINX) \
  && $(DOCS_TOOLS) antsibull-docs sphinx-init --use-current --dest-dir $(DOCS_SPHINX) \
     --project credvault.vault --title 'credvault.vault collection' credvault.vault > /dev/null \
  && cat docs/docsite/sphinx_conf_extra.py >> $(DOCS_SPHINX)/conf.py && chmod og-w $(DOCS_SPHINX)/rst \
  && $(DOCS_TOOLS) antsibull-docs --config-file $(DOCS_SPHINX)/antsibull-docs.cfg collection --use-current \
     --fail-on-error --cleanup everything --dest-dir $(DOCS_SPHINX)/rst credvault.vault > /dev/null \
  && $(DOCS_VENV)/bin/python tests/utils/finish_docsite.py --rst $(DOCS_SPHINX)/rst --collection $(COPY) \
  && $(DOCS_TOOLS) sphinx-build -b html -E -W --keep-going -q -c $(DOCS_SPHINX) $(DOCS_SPHINX)/rst $(DOCS_HTML)

docs: collection $(DOCS_STAMP)
	$(BUILD_DOCSITE)
	@echo "documentation site: $(DOCS_HTML)/index.html"

# Debian's chromium, for the headless check of the site; installing it needs root.
docs-browser:
	@if ! command -v chromium > /dev/null; then \
	  if [ "$$(id -u)" != 0 ]; then echo 'make docs-check: chromium is missing; run as root to install it' >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; fi

# The lint (about a minute on a busy machine) runs while the site builds and Chromium checks it.
docs-check: $(SETUP) docs-browser $(DOCS_STAMP)
	( cd $(COPY) && $(DOCS_TOOLS) antsibull-docs lint-collection-docs --plugin-docs . > $(BUILD)/docs-lint.log 2>&1 ) \
	  & lint=$$!; trap 'kill $$lint 2> /dev/null || true' EXIT; \
	  $(BUILD_DOCSITE); \
	  python tests/utils/check_docsite.py --html $(DOCS_HTML) --collection $(COPY); \
	  wait $$lint || { cat $(BUILD)/docs-lint.log; echo 'antsibull-docs lint-collection-docs failed' >&2; exit 1; }
	@echo 'antsibull-docs lint-collection-docs --plugin-docs: no errors'

# The scenarios change this machine's users and sudo rules (all named cvrr_* or
# cvhc_*, removed by their destroy steps) and run a private sshd, so they need
# root (user_role_example, a user's role against a seeded simulator, does not).
# They run in the copy, with the copy as the credvault.vault collection.
MOLECULE_SCENARIOS ?= linux_remote_reset host_credentials user_role_example

molecule-tools:
	@if [ "$$(id -u)" != 0 ]; then \
	  echo 'make molecule: needs root (it creates test users, sudo rules and a private sshd); run it as root' >&2; \
	  exit 1; fi
	if [ ! -x /usr/sbin/sshd ] || [ ! -x /usr/sbin/visudo ] || [ ! -x /usr/bin/sshpass ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server sudo sshpass; fi

molecule: molecule-tools $(SETUP)
	cd $(COPY) && for s in $(MOLECULE_SCENARIOS); do \
	  MOLECULE_EPHEMERAL_DIRECTORY=$(BUILD)/molecule/$$s ANSIBLE_COLLECTIONS_PATH=$(BUILD) \
	  molecule test -s $$s || exit 1; done

# The benchmark (tests/bench/bench.py) starts and seeds its own simulator, so it needs nothing running.
BENCH_LATENCY_MS ?= 20
BENCH_TERMS ?= 1,10,100,1000
BENCH_ACCOUNTS ?= 100
# Numbers of resources of the simulator at scale (tests/bench/simulator_scale_bench.py).
BENCH_SCALE ?= 100,1000,5000
# Audit records of the event source's burst (tests/bench/audit_bench.py).
BENCH_BURST ?= 10000
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): tests/bench/requirements.txt | $(VENV_STAMP)
	$(VENV)/bin/python -m pip install --progress-bar off -r tests/bench/requirements.txt
	touch $@

bench: venv collection $(BENCH_STAMP)
	cd tests/bench && python bench.py --collections $(BUILD) --latency-ms $(BENCH_LATENCY_MS) \
	  --terms $(BENCH_TERMS) --accounts $(BENCH_ACCOUNTS) --scale $(BENCH_SCALE) --burst $(BENCH_BURST) \
	  --out $(CURDIR)/docs/benchmark

# make test runs the benchmark small, without latency or chart, so that it keeps working: every secret it
# fetches is checked and every play must pass (3 hosts x 2 tasks over SSH, 3 hosts x 2 tasks for the run cache, 2
# tasks per start-up run), every answer of the simulator at scale (20 resources) too, and the event source's polls
# around a burst of 200 audit records, each giving what it must; its figures are not looked at.
bench-smoke: $(SETUP)
	cd tests/bench && python bench.py --collections $(BUILD) --latency-ms 0 --terms 1,10 --accounts 3 \
	  --hosts 3 --host-tasks 2 --cache-hosts 3 --cache-tasks 2 --startup-tasks 2 --scale 20 --burst 200 \
	  --out $(BUILD)/bench-smoke --no-chart > $(BUILD)/bench-smoke.log || { cat $(BUILD)/bench-smoke.log; exit 1; }
	@echo "benchmark smoke run passed ($(BUILD)/bench-smoke.log)"

# The smoke run (tests/utils/smoke.py) on the full suite's ansible-core, as each row of the matrix runs it on its own.
smoke: $(SETUP)
	python tests/utils/smoke.py --ansible-bin $(VENV)/bin --collections $(BUILD) --work-dir $(BUILD)/smoke

# A job as AWX and Automation Platform run it (ansible-runner, the credential type's injectors applied), every
# artifact searched for the token and the job's secrets (tests/utils/runner_check.py); the 2.22 row runs it too.
runner-check: $(SETUP)
	python tests/utils/runner_check.py --ansible-bin $(VENV)/bin --collections $(BUILD) --work-dir $(BUILD)/runner-check

# The versions of the support matrix besides the full suite's (tests/utils/matrix.py): sanity, smoke run and for the
# oldest and newest the unit tests, each version in its own venv, copy and home under $(BUILD)/matrix.
MATRIX_ROWS := $(shell python3 tests/utils/matrix.py --list)

matrix-%: $(SETUP)
	python tests/utils/matrix.py --row $* --content $(COPY) --work-dir $(BUILD)/matrix/$* \
	  $(if $(REQUIRE_ALL_PYTHONS),--require-python)

matrix: $(SETUP)
	for row in $(MATRIX_ROWS); do $(MAKE) SKIP_SETUP=1 matrix-$$row || exit 1; done

# The full suite's interpreter: on another one than $(NEWEST_PYTHON), the newest ansible-core is not run.
main-python:
	@if [ "$(TEST_PYTHON)" != "$(NEWEST_PYTHON)" ]; then \
	  echo "main-python: not run: the full suite runs on Python $(TEST_PYTHON) with the ansible-core of .venv;" \
	    "Python $(NEWEST_PYTHON) (for the newest ansible-core) is not on the PATH or in pyenv"; \
	  exit $(if $(REQUIRE_ALL_PYTHONS),1,3); fi
	@echo "main-python: the full suite runs on $$(python --version) with ansible-core" \
	  "$$(python -c 'from ansible.release import __version__; print(__version__)')"

# make test: the stages side by side (tests/utils/pipeline.py), longest first, within TEST_SLOTS; the integration
# stage weighs INTEGRATION_JOBS. The units come early: most of their wall time is spent waiting (simulated latency,
# lock timeouts), which the CPU-bound stages beside them use. The first failure stops the rest. The table of their
# wall and CPU times goes to $(BUILD)/test-times.md.
TEST_SLOTS ?= 3
TEST_STAGES := main-python integration:$(INTEGRATION_JOBS) units $(addprefix matrix-,$(MATRIX_ROWS)) sanity \
  docs-check package-check certification-check awx-plugin-check eda-check bench-smoke smoke runner-check \
  simulator-guide-check lint molecule

# Debian packages the stages need, installed once before they start (two apt-get runs at once would fight over
# dpkg's lock): chromium (docs-check), openssh-server (molecule, bench-smoke), sudo and sshpass (molecule), shellcheck
# (ansible-test sanity skips its shellcheck test, with only a warning, when the program is missing), Java
# (eda-check's ansible-rulebook). Installing needs root.
SYSTEM_PACKAGES := chromium:chromium sshd:openssh-server visudo:sudo sshpass:sshpass shellcheck:shellcheck \
  java:openjdk-17-jre-headless

system-packages:
	@missing=$$(for pair in $(SYSTEM_PACKAGES); do \
	  PATH=$$PATH:/usr/sbin command -v $${pair%%:*} > /dev/null || echo $${pair#*:}; done); \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then echo "make test: missing $$missing; run as root to install them" >&2; exit 1; fi; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; fi

test: venv collection system-packages
	python tests/utils/pipeline.py --calibrate --slots $(TEST_SLOTS) --log-dir $(BUILD)/stage-logs \
	  --summary $(BUILD)/test-times.md \
	  $(addprefix --stage ,$(TEST_STAGES)) -- $(MAKE) SKIP_SETUP=1 BUILD=$(BUILD) VENV=$(VENV) \
	  $(if $(REQUIRE_ALL_PYTHONS),REQUIRE_ALL_PYTHONS=1)

# The inner loop, in its own venv (CHECK_VENV): the format check, ruff's lint and the unit tests on every core
# (pytest-xdist) but those marked slow (SLOW_TESTS of tests/unit/conftest.py: the fault suite, the module scenarios,
# and the tests of real processes and real timeouts), each property test drawing a tenth as many examples
# (tests/unit/conftest.py); make units runs them all, and the tooling's tests. ansible-lint (two minutes of CPU by
# itself) is left to make lint. UNIT_TESTS=<path or path::test> runs the tests named, slow or not.
# No copy of the collection: it is imported as ansible_collections.credvault.vault through a symlink to this checkout
# (CHECK_LINK, made afresh each time, so that it never names another checkout), and pytest runs the tests through it,
# so that paths under the collection are what they are in the copy. Python's byte code and Hypothesis's files go
# under .build (PYTHONDONTWRITEBYTECODE, if set, would compile every module on every run).
CHECK_COLLECTIONS := $(BUILD)/check-collections
CHECK_LINK := $(CHECK_COLLECTIONS)/ansible_collections/credvault/vault
CHECK_PYTEST := env -u PYTHONDONTWRITEBYTECODE PYTHONPYCACHEPREFIX=$(BUILD)/pycache \
  HYPOTHESIS_STORAGE_DIRECTORY=$(BUILD)/hypothesis PYTHONPATH=$(CHECK_COLLECTIONS) $(CHECK_VENV)/bin/python -m pytest
# UNIT_TESTS through the link; pytest's report names a test through it (.build/check-collections/.../vault/tests/...),
# and that form is taken too.
CHECK_TESTS := $(addprefix $(CHECK_LINK)/,$(patsubst $(CHECK_LINK:$(CURDIR)/%=%)/%,%,$(UNIT_TESTS)))

check: $(CHECK_STAMP)
	$(CHECK_VENV)/bin/ruff format --check --diff .
	$(CHECK_VENV)/bin/ruff check .
	mkdir -p $(dir $(CHECK_LINK)) $(PYTEST_TEMP)
	ln -sfn $(CURDIR) $(CHECK_LINK)
	$(CHECK_PYTEST) -p no:cacheprovider --basetemp $(PYTEST_TEMP)/check --rootdir $(CHECK_LINK) -q -n auto \
	  --hypothesis-profile credvault-check $(if $(ALL_UNIT_TESTS),-m 'not slow') $(CHECK_TESTS)

# Writes the pieces of a new module into this checkout (tests/utils/new_module.py says which), then the shared files
# from the modules' declarations (tests/utils/module_facts.py, which reads them with the venv's PyYAML).
new-module: venv
	$(if $(NAME),,$(error NAME=vault_<thing>[_info] is required))
	python tests/utils/new_module.py $(NAME) $(if $(OPERATION),--operation $(OPERATION)) \
	  $(if $(DESCRIPTION),--description "$(DESCRIPTION)")

clean:
	rm -rf $(VENV) $(BUILD) .ansible tests/output
	rm -rf tests/simulator/build tests/simulator/dist
	find . -path ./.git -prune -o \( -name '*.egg-info' -o -name __pycache__ -o -name .pytest_cache \) -prune -exec rm -rf {} +
