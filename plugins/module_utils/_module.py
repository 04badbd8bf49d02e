# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base of every module: argspec with connection options, one client, one place errors become failures."""

from __future__ import annotations

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

from ._checks import check_control_characters
from ._client import HAS_REQUESTS, INSECURE_WARNING
from ._errors import VaultError
from ._options import client_from_options, connection_argument_spec


class VaultModule:
    def __init__(self, argument_spec, **kwargs):
        spec = connection_argument_spec()
        spec.update(argument_spec)
        kwargs.setdefault("supports_check_mode", True)
        self.module = AnsibleModule(argument_spec=spec, **kwargs)
        self._task_spec = argument_spec
        if not HAS_REQUESTS:
            self.module.fail_json(msg=missing_required_lib("requests"))
        self.params = self.module.params
        self.check_mode = self.module.check_mode
        self._client = None

    @property
    def client(self):
        """The task's one client; with ``validate_certs: false`` its creation warns, once per task."""
        if self._client is None:
            self._client = client_from_options(self.params.get)
            if self._client.insecure:
                self.module.warn(INSECURE_WARNING)
        return self._client

    @property
    def wrote(self):
        """True when the client wrote to the vault, or may have (see ``VaultClient.wrote``)."""
        return self._client is not None and self._client.wrote

    def outcome(self, tracker, **values):
        """The result of a converging task: ``changed`` and ``diff`` from ``tracker``, whose warnings are warned."""
        for warning in tracker.warnings:
            self.module.warn(warning)
        return dict(values, changed=tracker.changed, diff=tracker.diff())

    def run(self, work):
        """Call ``work()`` and exit with its result dict, once no text option holds a control character
        (``_checks.check_control_characters``, before any request); a ``VaultError`` becomes the task's failure,
        reported ``changed`` when the vault was written to (or may have been) before it, its message naming those
        writes and, when the vault did not serve a call and no edition is set, saying to set it."""
        try:
            check_control_characters(self._task_spec, self.params)
            result = work()
        except VaultError as exc:
            message = self._client.failure_message(exc) if self._client is not None else str(exc)
            self.module.fail_json(msg=message, changed=self.wrote, **exc.to_result())
        finally:
            if self._client is not None:
                self._client.close()
        self.module.exit_json(**result)
