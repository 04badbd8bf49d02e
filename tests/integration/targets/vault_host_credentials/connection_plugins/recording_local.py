# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
name: recording_local
short_description: The local connection, recording the password each command was run with
description:
  - Runs commands on the controller as ansible.builtin.local does and, for each command, appends the host it was
    for (C(ansible_host)) and the first 16 hex digits of the SHA-256 of the password the connection was given
    (C(ansible_password); C(-) when none) to O(record_file) - never the password itself.
  - A test of the role credvault.vault.host_credentials, to see which password each task's connection, delegated
    or not, would log in with.
author: credvault maintainers
extends_documentation_fragment:
  - connection_pipelining
options:
  password:
    description: The password the connection is given.
    type: str
    vars:
      - name: ansible_password
  record_file:
    description: The file the records are appended to.
    type: path
    env:
      - name: RECORDING_LOCAL_FILE
"""

import hashlib

from ansible.plugins.connection.local import Connection as LocalConnection


class Connection(LocalConnection):
    transport = "recording_local"

    def exec_command(self, cmd, in_data=None, sudoable=True):
        password = self.get_option("password")
        digest = hashlib.sha256(password.encode("utf-8")).hexdigest()[:16] if password else "-"
        with open(self.get_option("record_file"), "a", encoding="utf-8") as records:
            records.write("%s %s\n" % (self._play_context.remote_addr, digest))
        return super().exec_command(cmd, in_data=in_data, sudoable=sudoable)
