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

PYTHON ?= python3
# The only Python this collection supports (ansible-core 2.19 on Python 3.11).
TEST_PYTHON := 3.11

VENV := $(CURDIR)/.venv
VENV_STAMP := $(VENV)/.installed
BUILD := $(CURDIR)/.build
# ansible-test only works inside an ansible_collections/<namespace>/<name>
# directory and resolves symlinks, so the tests run on a copy of the sources.
COPY := $(BUILD)/ansible_collections/credvault/vault
DIST := $(BUILD)/dist
COLLECTIONS := $(BUILD)/collections
SIMULATOR_LOGS := $(BUILD)/simulator-logs
INTEGRATION_PROFILES := default,strict,edition_b,old_a,access_control
# Names of integration targets to run (default: all of them).
INTEGRATION_TARGETS ?=
# How many ansible-test integration runs at once (2 suits a 2-core machine).
INTEGRATION_JOBS ?= 2
INTEGRATION_JOBS_DIR := $(BUILD)/integration-jobs

# ansible-test downloads a pip bootstrap script from the internet unless it is
# in this cache; the file name follows the pip version ansible-core 2.19 uses.
ANSIBLE_TEST_GET_PIP := $(HOME)/.ansible/test/cache/get_pip_24_2.py

# The venv's tools come first, so that ansible-test finds the venv's ansible.
export PATH := $(VENV)/bin:$(PATH)
export PIP_DISABLE_PIP_VERSION_CHECK := 1
unexport VIRTUAL_ENV PYTHONPATH ANSIBLE_COLLECTIONS_PATH ANSIBLE_COLLECTIONS_PATHS ANSIBLE_CONFIG

# ansible-test walks up from the working directory looking for a .git to list
# the sources; the copy lives in an ignored directory of this repository, so
# tell ansible-test where the content is (it then lists the files on disk).
ANSIBLE_TEST := env ANSIBLE_TEST_CONTENT_ROOT=$(COPY) ansible-test

.PHONY: help venv collection units sanity lint format integration molecule molecule-tools demo package-check awx-plugin-check docs docs-browser docs-check bench bench-smoke test clean

help:
	@echo 'make demo         build and install the collection, run docs/examples/demo.yml against a simulator'
	@echo 'make test         venv, collection, units, lint, sanity, package-check, awx-plugin-check, docs-check,'
	@echo '                  bench-smoke, integration, molecule'
	@echo '                  (stops at the first failure)'
	@echo 'make venv         create .venv with the tools from requirements-dev.txt and the simulator'
	@echo 'make collection   copy the sources to $(COPY:$(CURDIR)/%=%)'
	@echo 'make units        pytest of tests/unit and tests/simulator/tests'
	@echo 'make lint         ruff format --check, ruff check, ansible-lint --profile production, antsibull-changelog lint'
	@echo 'make format       apply ruff format and ruff check --fix (the one style of ruff.toml)'
	@echo 'make sanity       ansible-test sanity --venv --python $(TEST_PYTHON)'
	@echo 'make package-check'
	@echo '                  build the tarball; check its files, galaxy-importer, ansible-builder introspect and'
	@echo '                  create; run the demo from the installed tarball (galaxy-importer in its own venv)'
	@echo 'make awx-plugin-check'
	@echo '                  the AWX/AAP credential plugin (extensions/awx_credential_plugin): its backend against'
	@echo '                  simulators, its inputs against awx-plugins-interfaces, its wheel in a clean venv'
	@echo 'make docs         the antsibull-docs Sphinx site (plugin pages and docs/docsite guides) into'
	@echo '                  $(DOCS_HTML:$(CURDIR)/%=%), warnings as errors (tools in their own venv)'
	@echo 'make docs-check   antsibull-docs lint-collection-docs --plugin-docs, make docs, and a headless Chromium'
	@echo '                  check of the site (installs Debian'"'"'s chromium if missing: needs root then)'
	@echo 'make integration  ansible-test integration --venv --python $(TEST_PYTHON) with simulators running'
	@echo '                  (INTEGRATION_TARGETS="t1 t2" runs only those; INTEGRATION_JOBS=N runs N at once;'
	@echo '                  BUILD=DIR copies elsewhere)'
	@echo 'make molecule     molecule test of extensions/molecule (the linux_remote_reset role end to end over'
	@echo '                  a private sshd on 127.0.0.1; needs root; installs openssh-server and sudo if missing)'
	@echo 'make bench        the performance benchmark: its own simulators with BENCH_LATENCY_MS (default 20) per'
	@echo '                  request; writes docs/benchmark/results.md and lookup.png (BENCH_TERMS, BENCH_ACCOUNTS)'
	@echo 'make clean        remove .venv, .build and caches'

venv: $(VENV_STAMP)

$(VENV_STAMP): requirements-dev.txt tests/simulator/pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --progress-bar off -r requirements-dev.txt
	$(VENV)/bin/python -m pip install --progress-bar off -e tests/simulator
	touch $@

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

$(ANSIBLE_TEST_GET_PIP):
	mkdir -p $(@D)
	cp tests/utils/get_pip_offline.py $@

# Two runs: the simulator's tests use the simulator's own pytest configuration
# (tests/simulator/pyproject.toml), the unit tests import the collection as
# ansible_collections.credvault.vault from the copy.
units: venv collection
	cd $(COPY) && PYTHONPATH=$(BUILD) python -m pytest -p no:cacheprovider --rootdir $(COPY) tests/unit
	cd $(COPY) && python -m pytest -p no:cacheprovider tests/simulator/tests

sanity: venv collection
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

# The targets run as INTEGRATION_JOBS ansible-test runs at once, each in its own
# copy of the collection under $(INTEGRATION_JOBS_DIR) with its own simulators
# (tests/utils/parallel_integration.py). ansible-test hands each run's
# tests/integration/integration_config.yml to role targets as a vars file;
# runme.sh targets read it themselves (see README.md).
integration: venv collection
	python $(CURDIR)/tests/utils/parallel_integration.py --jobs $(INTEGRATION_JOBS) \
	  --content $(COPY) --work-dir $(INTEGRATION_JOBS_DIR) \
	  --profiles $(INTEGRATION_PROFILES) --log-dir $(SIMULATOR_LOGS) \
	  --targets "$(INTEGRATION_TARGETS)" \
	  -- ansible-test integration --venv --python $(TEST_PYTHON)

# `make demo` and `make package-check` share these two steps: build the tarball and install it into
# $(COLLECTIONS), then run docs/examples/demo.yml from that installed copy against a simulator.
# A shell glob: the tarball's name holds the version of galaxy.yml.
TARBALL := $(DIST)/credvault-vault-*.tar.gz
INSTALLED := $(COLLECTIONS)/ansible_collections/credvault/vault

define build_and_install_tarball
	rm -rf $(DIST) $(COLLECTIONS)
	ansible-galaxy collection build --output-path $(DIST) .
	ansible-galaxy collection install --force -p $(COLLECTIONS) $(TARBALL)
endef

# One command, so that package-check can run it beside galaxy-importer.
RUN_INSTALLED_DEMO := ANSIBLE_COLLECTIONS_PATH=$(COLLECTIONS) python tests/utils/with_simulators.py \
  --profiles default --log-dir $(SIMULATOR_LOGS) \
  -- ansible-playbook -i localhost, -c local -e ansible_python_interpreter=$(VENV)/bin/python \
  -e token_dir=$(BUILD)/demo $(INSTALLED)/docs/examples/demo.yml

demo: venv
	$(build_and_install_tarball)
	$(RUN_INSTALLED_DEMO)

# galaxy-importer pins attrs<24, which would downgrade the attrs of .venv (ansible-lint's jsonschema), so it
# gets its own venv, made like .venv from the same package index; ansible-builder comes with it.
IMPORTER_VENV := $(BUILD)/importer-venv
IMPORTER_STAMP := $(IMPORTER_VENV)/.installed
IMPORTER_REQUIREMENTS := 'galaxy-importer>=0.4.44,<0.5' 'ansible-builder>=3.2,<4' \
  'ansible-core>=2.19,<2.20' 'ansible-lint>=26.10,<27'
PACKAGE_CHECKS := $(BUILD)/package-check
# Without its ansible-test step, which needs a container engine; it writes importer_result.json to the working
# directory.
GALAXY_IMPORTER := cd $(PACKAGE_CHECKS) && PATH=$(IMPORTER_VENV)/bin:$$PATH GALAXY_IMPORTER_RUN_ANSIBLE_TEST=false \
  $(IMPORTER_VENV)/bin/python -m galaxy_importer.main $(TARBALL) > importer.log 2>&1

$(IMPORTER_STAMP): Makefile
	test -x $(IMPORTER_VENV)/bin/python || $(PYTHON) -m venv $(IMPORTER_VENV)
	$(IMPORTER_VENV)/bin/python -m pip install --progress-bar off $(IMPORTER_REQUIREMENTS)
	touch $@

# The tarball is what is tested: its file list (tests/utils/check_tarball.py), ansible-builder introspect of the
# installed copy finding every requirement of requirements.txt, ansible-builder create of
# docs/execution-environment.yml, galaxy-importer (failing on any warning) and the demo from the installed copy.
# galaxy-importer (about 45 s, most of it its ansible-lint run) runs while the demo does.
package-check: venv $(IMPORTER_STAMP)
	$(build_and_install_tarball)
	python tests/utils/check_tarball.py $(TARBALL)
	rm -rf $(PACKAGE_CHECKS) && mkdir -p $(PACKAGE_CHECKS)
	$(IMPORTER_VENV)/bin/ansible-builder introspect --write-pip $(PACKAGE_CHECKS)/ee-python.txt $(COLLECTIONS)
	for requirement in $$(sed -e 's/#.*//' -e 's/[<>=!~; ].*//' requirements.txt); do \
	  grep -q "^$$requirement\b.*from collection credvault.vault" $(PACKAGE_CHECKS)/ee-python.txt \
	  || { echo "ansible-builder introspect did not find $$requirement" >&2; exit 1; }; done
	$(IMPORTER_VENV)/bin/ansible-builder create --file docs/execution-environment.yml \
	  --context $(PACKAGE_CHECKS)/ee-context > /dev/null
	grep -q 'name: credvault.vault' $(PACKAGE_CHECKS)/ee-context/_build/requirements.yml
	( $(GALAXY_IMPORTER) ) & importer=$$!; trap 'kill $$importer 2> /dev/null || true' EXIT; \
	  $(RUN_INSTALLED_DEMO); \
	  wait $$importer || { cat $(PACKAGE_CHECKS)/importer.log; echo 'galaxy-importer failed' >&2; exit 1; }
	if grep -E '^(WARNING|ERROR|CRITICAL):' $(PACKAGE_CHECKS)/importer.log; then \
	  echo 'galaxy-importer warned about the tarball (see above)' >&2; exit 1; fi
	@echo "galaxy-importer: $$(tail -n 1 $(PACKAGE_CHECKS)/importer.log) ($(PACKAGE_CHECKS)/importer.log)"

# The AWX/AAP credential plugin's tests (extensions/awx_credential_plugin/tests) run in the copy, with the copy and
# the plugin's sources on PYTHONPATH, against a default and a strict simulator; awx-plugins-interfaces (no
# dependencies of its own that .venv lacks) goes into a directory of its own, not into .venv. test_wheel.py builds
# the wheel and installs it into a new virtual environment with requests only.
AWX_PLUGIN := extensions/awx_credential_plugin
AWX_PLUGIN_INTERFACES := $(BUILD)/awx-plugin/interfaces

awx-plugin-check: venv collection
	rm -rf $(AWX_PLUGIN_INTERFACES)
	python -m pip install --progress-bar off --quiet --no-deps --target $(AWX_PLUGIN_INTERFACES) \
	  'awx-plugins-interfaces==0.0.1a5'
	cd $(COPY) && python $(CURDIR)/tests/utils/with_simulators.py --profiles default,strict \
	  --log-dir $(SIMULATOR_LOGS) -- env PYTHONPATH=$(BUILD):$(AWX_PLUGIN_INTERFACES):$(COPY)/$(AWX_PLUGIN)/src \
	  python -m pytest -p no:cacheprovider --rootdir $(AWX_PLUGIN) -q $(AWX_PLUGIN)/tests

# The documentation site: antsibull-docs writes a Sphinx project (sphinx-init) and the plugin pages of the
# copy (collection, with the guides of docs/docsite), sphinx-build makes it HTML with warnings as errors. Sphinx
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
docs-check: venv docs-browser collection $(DOCS_STAMP)
	( cd $(COPY) && $(DOCS_TOOLS) antsibull-docs lint-collection-docs --plugin-docs . > $(BUILD)/docs-lint.log 2>&1 ) \
	  & lint=$$!; trap 'kill $$lint 2> /dev/null || true' EXIT; \
	  $(BUILD_DOCSITE); \
	  python tests/utils/check_docsite.py --html $(DOCS_HTML) --collection $(COPY); \
	  wait $$lint || { cat $(BUILD)/docs-lint.log; echo 'antsibull-docs lint-collection-docs failed' >&2; exit 1; }
	@echo 'antsibull-docs lint-collection-docs --plugin-docs: no errors'

# The scenario changes this machine's users and sudo rules (all named cvrr_*,
# removed by its destroy step) and runs a private sshd, so it needs root. It
# runs in the copy, with the copy as the credvault.vault collection.
MOLECULE_SCENARIOS ?= linux_remote_reset

molecule-tools:
	@if [ "$$(id -u)" != 0 ]; then \
	  echo 'make molecule: needs root (it creates test users, sudo rules and a private sshd); run it as root' >&2; \
	  exit 1; fi
	if [ ! -x /usr/sbin/sshd ] || [ ! -x /usr/sbin/visudo ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server sudo; fi

molecule: molecule-tools venv collection
	cd $(COPY) && for s in $(MOLECULE_SCENARIOS); do \
	  MOLECULE_EPHEMERAL_DIRECTORY=$(BUILD)/molecule/$$s ANSIBLE_COLLECTIONS_PATH=$(BUILD) \
	  molecule test -s $$s || exit 1; done

# The benchmark (tests/bench/bench.py) starts and seeds its own simulator, so it needs nothing running.
BENCH_LATENCY_MS ?= 20
BENCH_TERMS ?= 1,10,100,1000
BENCH_ACCOUNTS ?= 100
BENCH_STAMP := $(VENV)/.bench-installed

$(BENCH_STAMP): tests/bench/requirements.txt | $(VENV_STAMP)
	$(VENV)/bin/python -m pip install --progress-bar off -r tests/bench/requirements.txt
	touch $@

bench: venv collection $(BENCH_STAMP)
	cd tests/bench && python bench.py --collections $(BUILD) --latency-ms $(BENCH_LATENCY_MS) \
	  --terms $(BENCH_TERMS) --accounts $(BENCH_ACCOUNTS) --out $(CURDIR)/docs/benchmark

# make test runs the benchmark small, without latency or chart, so that it keeps working: every secret it
# fetches is checked and every play must pass; its figures are not looked at.
bench-smoke: venv collection
	cd tests/bench && python bench.py --collections $(BUILD) --latency-ms 0 --terms 1,10 --accounts 3 \
	  --out $(BUILD)/bench-smoke --no-chart > $(BUILD)/bench-smoke.log || { cat $(BUILD)/bench-smoke.log; exit 1; }
	@echo "benchmark smoke run passed ($(BUILD)/bench-smoke.log)"

test: venv collection units lint sanity package-check awx-plugin-check docs-check bench-smoke integration molecule

clean:
	rm -rf $(VENV) $(BUILD) .ansible tests/output
	rm -rf tests/simulator/build tests/simulator/dist
	find . -path ./.git -prune -o \( -name '*.egg-info' -o -name __pycache__ -o -name .pytest_cache \) -prune -exec rm -rf {} +
