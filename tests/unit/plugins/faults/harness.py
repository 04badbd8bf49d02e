# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The fault suite's vault and runners: the simulator (tests/simulator) serving HTTPS on a loopback port of this
process, its faults scoped to the vault's reads or writes, and every kind of plugin run as Ansible runs it.

- A module runs its ``main()`` with its arguments as Ansible passes them; its JSON result is read from stdout.
- A controller action (the key-file writers) runs its ``ActionModule`` with a stand-in task.
- A lookup runs through Ansible's plugin loader; its ``AnsibleError`` is the task's failure.
- The inventory plugin parses a configuration file; its ``AnsibleError`` is the failure.

The client's backoff between attempts is not slept (``VaultClient._backoff``), so a fault costs no waiting beyond
its own: only the latency fault waits, for the short timeout of its run.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import re
import threading
import time
from unittest import mock

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE, PKI
from ansible_collections.credvault.vault.plugins.module_utils._settings import PKI_ROOT, REST_ROOT
from ansible_collections.credvault.vault.tests.unit.core_compat import as_controller_takes_it, set_module_args

COLLECTION = "ansible_collections.credvault.vault.plugins"
EDITION, BUILD = "A", 12450  # the simulator's defaults


def _endpoint_patterns(edition):
    """(method, compiled path pattern, literal characters, is_read) of every catalogue row, for ``edition``."""
    patterns = []
    for endpoint in CATALOGUE.values():
        root = PKI_ROOT if endpoint.root == PKI else REST_ROOT
        parts = re.split(r"\{[^}]+\}", endpoint.path)
        pattern = "^" + root + "[^/]+".join(re.escape(part) for part in parts) + "$"
        literal = len("".join(parts))
        patterns.append((endpoint.method_for(edition), re.compile(pattern), literal, endpoint.is_read))
    return patterns


class ScopedFaults:
    """The simulator's faults, drawn only for the requests of one scope: ``"write"`` (a catalogue row that is not a
    read) or ``"read"`` (every other request). Records each request a rule fired on, as (method, path, kind)."""

    def __init__(self, faults, edition=EDITION):
        self._faults = faults
        self._patterns = _endpoint_patterns(edition)
        self.scope = "read"
        self.fired = []

    def is_read(self, method, path):
        found = [
            (literal, read)
            for row_method, pattern, literal, read in self._patterns
            if row_method == method and pattern.match(path)
        ]
        return max(found)[1] if found else True

    def arm(self, rule, scope):
        from vault_simulator.core.faults import FaultRule  # pylint: disable=import-error

        self.scope, self.fired = scope, []
        self._faults.replace([FaultRule.from_dict(rule)])

    def clear(self):
        self._faults.replace([])

    def draw(self, method, path):
        if self.is_read(method, path) != (self.scope == "read"):
            return []
        fired = self._faults.draw(method, path)
        self.fired.extend((method, path, rule.kind) for rule in fired)
        return fired

    def rules(self):
        return self._faults.rules()


class InProcessVault:
    """A simulator of ``edition`` and ``build`` serving HTTPS on 127.0.0.1 in threads of this process; with
    ``access_control``, password access control is on and a reason is required; with ``require_client_cert``, the
    TLS handshake demands a client certificate of the simulator's CA: ``client_cert`` and ``client_key`` (paths,
    there on every vault, never in ``connection``). ``config``: more of ``SimulatorConfig``'s fields
    (``require_ticket``, ``dialect``, ``require_reason``)."""

    def __init__(
        self, directory, edition=EDITION, build=BUILD, access_control=False, require_client_cert=False, **config
    ):
        # pylint: disable=import-error
        from vault_simulator.core.app import create_app
        from vault_simulator.core.config import SimulatorConfig
        from vault_simulator.core.server import _SimulatorServer
        from vault_simulator.core.simulator import simulator_of
        from vault_simulator.core.tls import create_tls_files

        tls_files = create_tls_files(str(directory))
        settings = dict(edition=edition, build=build, seed=23, access_control=access_control)
        settings.update(dict(require_reason=access_control), **config)
        self.app = create_app(SimulatorConfig(**settings))
        self.simulator = simulator_of(self.app)
        self.faults = ScopedFaults(self.simulator.faults, edition)
        self.simulator.faults = self.faults
        self.server = _SimulatorServer(self.app, "127.0.0.1", 0, tls_files, require_client_cert=require_client_cert)
        self.server.prepare()
        self._thread = threading.Thread(target=self.server.serve, daemon=True)
        self._thread.start()
        self.port = self.server.bind_addr[1]
        self.connection = {
            "url": "https://127.0.0.1:%d" % self.port,
            "auth_token": self.simulator.admin_token,
            "ca_path": tls_files.ca_path,
            "edition": edition,
            "build": build,
        }
        self.client_cert = tls_files.client_cert_path
        self.client_key = tls_files.client_key_path

    @property
    def requests(self):
        return self.simulator.request_log.entries()

    def forget_requests(self):
        self.simulator.request_log.clear()

    def wait_until_served(self, method, path, seconds=10):
        """Wait until the request log shows ``method`` ``path`` served (a delayed request is logged when served)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if any(entry["method"] == method and entry["path"] == path for entry in self.requests):
                return
            time.sleep(0.02)
        raise AssertionError("%s %s was not served within %d s" % (method, path, seconds))

    def close(self):
        self.server.stop()
        self.simulator.store.close()


def run_module(name, args, check_mode=False):
    """Run module ``name``'s ``main()`` with ``args``; its result as the controller takes it in (``failed`` and
    ``msg`` when it failed)."""
    module = importlib.import_module("%s.modules.%s" % (COLLECTION, name))
    arguments = dict(args, _ansible_check_mode=check_mode)
    stdout = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(stdout):
        set_module_args(patch, arguments)
        try:
            module.main()
        except SystemExit:
            pass
    return as_controller_takes_it(json.loads(stdout.getvalue()))


def run_action(name, args, check_mode=False):
    """Run the controller action ``name`` (an ``ActionModule`` that calls the vault itself) with ``args``."""
    from ansible.errors import AnsibleError

    plugin = importlib.import_module("%s.action.%s" % (COLLECTION, name))
    task = mock.MagicMock()
    task.args = dict(args)
    task.async_val = 0
    task.check_mode = check_mode
    task.diff = False
    action = plugin.ActionModule(task, mock.MagicMock(), mock.MagicMock(), mock.MagicMock(), mock.MagicMock(), None)
    try:
        return action.run(task_vars={})
    except AnsibleError as exc:
        return {"failed": True, "msg": str(exc)}


def run_lookup(name, terms, options):
    """Run lookup ``name`` on ``terms``; ``{"value": ...}``, or ``failed`` and ``msg``; ``warnings`` it displayed."""
    from ansible.errors import AnsibleError
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import lookup_loader
    from ansible.template import Templar
    from ansible.utils.display import Display

    loader = DataLoader()
    plugin = lookup_loader.get("credvault.vault.%s" % name, loader=loader, templar=Templar(loader=loader))
    warnings = []
    with mock.patch.object(Display, "warning", lambda self, msg, *args, **kwargs: warnings.append(msg)):
        try:
            result = {"value": plugin.run(list(terms), variables={}, **options)}
        except AnsibleError as exc:
            result = {"failed": True, "msg": str(exc)}
    if warnings:
        result["warnings"] = warnings
    return result


def run_inventory(config, directory):
    """Parse an inventory source of ``config`` with credvault.vault.vault_resources; ``{"hosts": {...}}`` (each
    host's variables), or ``failed`` and ``msg``."""
    from ansible.errors import AnsibleError
    from ansible.inventory.data import InventoryData
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import inventory_loader

    path = directory / "faults.vault_resources.yml"
    path.write_text(json.dumps(dict(config, plugin="credvault.vault.vault_resources")))
    plugin = inventory_loader.get("credvault.vault.vault_resources")
    data = InventoryData()
    try:
        plugin.parse(data, DataLoader(), str(path), cache=False)
    except AnsibleError as exc:
        return {"failed": True, "msg": str(exc)}
    return {"hosts": {name: host.get_vars() for name, host in sorted(data.hosts.items())}}
