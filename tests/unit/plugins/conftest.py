# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Lookup plugins as Ansible loads them, and a scripted vault behind them."""

from __future__ import annotations

import importlib
import os
import sys

import pytest

from ansible_collections.credvault.vault.tests.unit.core_compat import as_module_process, trusted_template
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

# The directory holding ansible_collections/credvault/vault.
COLLECTIONS_ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), *[".."] * 6))
COLLECTION_PACKAGE = "ansible_collections.credvault.vault"
# The fixtures below that run controller code (lookups, templates).
CONTROLLER_FIXTURES = {"lookup_plugin", "template", "vault"}


def install_collection_loader():
    """Let Ansible's plugin loader find this collection's plugins and their documentation (hence their options).

    Only Ansible's collection finder loads a collection's metadata and gives its
    packages the ``__file__`` the plugin loader needs. The tests imported
    ``ansible_collections`` packages as plain namespace packages already, so the
    finder is installed and those packages are reloaded in place through it: every
    module keeps its identity, and the lookups use the modules the tests patch.
    """
    if getattr(sys.modules.get(COLLECTION_PACKAGE), "_collection_meta", None) is not None:
        return
    from ansible.plugins.loader import init_plugin_loader

    init_plugin_loader([COLLECTIONS_ROOT])
    importlib.import_module(COLLECTION_PACKAGE)
    packages = [
        name
        for name, module in sys.modules.items()
        if name.split(".")[0] == "ansible_collections" and hasattr(module, "__path__")
    ]
    for name in sorted(packages, key=lambda name: name.count(".")):
        importlib.reload(sys.modules[name])


@pytest.fixture(autouse=True)
def module_side(request, monkeypatch):
    """Tests of module code see ``module_utils`` as a module process does: not on the controller.

    From ansible-core 2.19, importing any controller module (``ansible.errors``, which the lookup tests need) marks
    the whole test process as the controller, and ``AnsibleModule.warn()`` would then go to the controller's display
    instead of the module's result (``core_compat.as_module_process``).
    """
    if not CONTROLLER_FIXTURES & set(request.fixturenames):
        as_module_process(monkeypatch)


@pytest.fixture
def lookup_plugin():
    """``lookup_plugin("vault_password")``: a new instance, loaded by name with a real loader and templar."""
    install_collection_loader()
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import lookup_loader
    from ansible.template import Templar

    def load(name):
        loader = DataLoader()
        plugin = lookup_loader.get("credvault.vault.%s" % name, loader=loader, templar=Templar(loader=loader))
        assert plugin is not None, name
        return plugin

    return load


@pytest.fixture
def template():
    """``template(expression, **variables)``: render ``{{ expression }}`` as a task's template would."""
    install_collection_loader()
    from ansible.parsing.dataloader import DataLoader
    from ansible.template import Templar

    def render(expression, **variables):
        templar = Templar(loader=DataLoader(), variables=variables)
        return templar.template(trusted_template("{{ %s }}" % expression))

    return render


class LookupVault:
    """What the lookups' clients were asked: ``answers`` as for ``ScriptedClient``, then ``clients`` and ``warnings``."""

    def __init__(self):
        self.answers = {}
        self.clients = []
        self.warnings = []

    def open(self, get_option):
        from ansible_collections.credvault.vault.plugins.module_utils._options import CONNECTION_OPTIONS

        client = ScriptedClient(self.answers)
        client.options = {name: get_option(name) for name in CONNECTION_OPTIONS}
        client.closed = False
        client.close = lambda: setattr(client, "closed", True)
        self.clients.append(client)
        return client

    @property
    def calls(self):
        return [call for client in self.clients for call in client.calls]


@pytest.fixture
def vault(monkeypatch):
    """The lookups' clients are scripted; no CREDVAULT_* variable of the test run leaks in; warnings are kept."""
    install_collection_loader()
    from ansible.utils.display import Display

    from ansible_collections.credvault.vault.plugins.plugin_utils import _lookup

    for name in list(os.environ):
        if name.startswith("CREDVAULT_"):
            monkeypatch.delenv(name)
    state = LookupVault()
    monkeypatch.setattr(_lookup, "client_from_options", state.open)
    monkeypatch.setattr(Display, "warning", lambda self, msg, *args, **kwargs: state.warnings.append(msg))
    return state


@pytest.fixture
def registered(monkeypatch):
    """The values the collection registers with ansible-core's Secrets API (``_compat.register_secrets``), in order,
    recorded on every version: ``_compat._register_secrets`` (None before 2.22) is replaced by the recorder."""
    install_collection_loader()  # first: it reloads _compat, which would undo the patch
    from ansible_collections.credvault.vault.plugins.plugin_utils import _compat

    values = []
    monkeypatch.setattr(_compat, "_register_secrets", values.extend)
    return values
