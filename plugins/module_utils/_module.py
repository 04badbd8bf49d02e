# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The base of every module: argspec with connection options, one client, one place errors become failures."""

from __future__ import annotations

from ansible.module_utils.basic import AnsibleModule, missing_required_lib

from ._checks import check_control_characters
from ._client import HAS_REQUESTS
from ._errors import VaultError
from ._options import client_from_options, connection_argument_spec, connection_secrets, with_auth_token
from ._settings import INSECURE_WARNING
from ._task import FailedOutcome, Task


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
        """The task's one client; with ``validate_certs: false`` its creation warns, once per task. A token read
        from ``auth_token_file`` and a password in ``proxy_url`` are masked in the task's output as ``auth_token``
        (``no_log``) is."""
        if self._client is None:
            get_option = with_auth_token(self.params.get)
            self.module.no_log_values.update(connection_secrets(get_option))
            self._client = client_from_options(get_option)
            if self._client.insecure:
                self.module.warn(INSECURE_WARNING)
        return self._client

    @property
    def wrote(self):
        """True when the client wrote to the vault, or may have (see ``VaultClient.wrote``)."""
        return self._client is not None and self._client.wrote

    def run(self, entry, finish=None, write_file=None):
        """Run the domain entry point ``entry(task)`` (``_task``) and exit with its result, once no text option holds
        a control character (``_checks.check_control_characters``, before any request).

        ``finish(result)``, when given, completes the result on the host (file attributes, say). The task's warnings
        are warned whether it succeeds or fails. A ``FailedOutcome`` (``_task``) fails the task with its message and
        values. A ``VaultError`` becomes the task's failure, reported ``changed`` when the vault was written to (or
        may have been) before it, its message naming those writes and, when the vault did not serve a call and no
        edition is set, saying to set it."""
        task = None
        try:
            check_control_characters(self._task_spec, self.params)
            task = Task(self.client, self.params, self.check_mode, write_file=write_file)
            result = task.result(entry(task))
            if finish is not None:
                result = finish(result)
        except FailedOutcome as failed:
            self._warn(task)
            self.module.fail_json(msg=str(failed), **task.result(failed.values))
        except VaultError as exc:
            self._warn(task)
            message = self._client.failure_message(exc) if self._client is not None else str(exc)
            self.module.fail_json(msg=message, changed=self.wrote, **exc.to_result())
        finally:
            if self._client is not None:
                self._client.close()
        self._warn(task)
        self.module.exit_json(**result)

    def _warn(self, task):
        for warning in task.warnings if task is not None else ():
            self.module.warn(warning)
