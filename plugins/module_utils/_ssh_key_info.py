# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What ``vault_ssh_key_info`` reads: the key list, one key, the keys of a user, the users with keys (``_ssh_key``)."""

from __future__ import annotations

from ._checks import clean_text
from ._ssh_key import associated_users, get_key, keys_of_user, list_keys


def describe(task):
    """Entry point of ``vault_ssh_key_info``: the key list unless something narrower is asked (``name``, ``user``
    with ``resource``, ``associations``), each with its own return values."""
    client, options = task.client, task.desired
    info = {}
    if options.get("name") is not None:
        key = get_key(client, clean_text(options["name"], "name"))
        info.update(exists=key is not None, key=key or {})
    if options.get("user") is not None:
        user, resource = clean_text(options["user"], "user"), clean_text(options["resource"], "resource")
        info["key_names"] = keys_of_user(client, resource, user)
    if options.get("associations"):
        info["associations"] = associated_users(client)
    if not info:
        info["ssh_keys"] = list_keys(client)
    return info
