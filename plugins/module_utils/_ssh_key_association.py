# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Associations of SSH keys with users of resources (``vault_ssh_key_association``).

- "An association is a (keyName, resourceName, userName) triple". It is read
  in two steps (``_ssh_key``): ``GetAllAssociatedUsers`` gives the
  ``{UserName, ResourceName}`` pairs with at least one key,
  ``GetSSHKeysForUser`` per pair "details: comma-separated key names".
- Associate and dissociate answer ``SUCCESS`` in capitals (Common request
  rules 8); the client takes either case.
- Parallel runs: associations are read and changed under one lock per listed
  triple (``_object_lock``). An associate or dissociate the vault refuses
  ("is already associated") while a read then shows it done was done by a
  parallel run: no change, no failure.
"""

from __future__ import annotations

from ._api import ssh_keys as ssh_keys_api
from ._checks import clean_text
from ._errors import VaultAPIError, VaultInputError, is_refusal, refuse_unknown
from ._object_lock import object_locks
from ._ssh_key import associated_users, keys_of_user, list_keys

PARTS = ("key", "resource", "user")
# The kind of object locked while a run finds and changes an association (``_object_lock``).
ASSOCIATION = "SSH key association"


def triples_of(pairs, client):
    """The (key, resource, user) triples of the ``{UserName, ResourceName}`` pairs: one ``GetSSHKeysForUser`` each."""
    found = set()
    for resource, user in sorted(pairs):
        found.update((key, resource, user) for key in keys_of_user(client, resource, user))
    return found


def as_dicts(triples):
    return [{"key": key, "resource": resource, "user": user} for key, resource, user in sorted(triples)]


def converge(task):
    """Entry point of ``vault_ssh_key_association``: associate (``present``) or dissociate (``absent``) the listed
    triples; with ``purge`` (present only) also dissociate every other association of the keys listed. Returns
    ``{"associations", "added", "removed"}``.

    Reads ``GetAllAssociatedUsers``, then ``GetSSHKeysForUser`` for the pairs that matter (every pair with
    ``purge``, else the listed pairs that have keys), and ``GetAllSSHKeys`` to refuse unknown keys before any
    write (check mode: warns, the keys may come from an earlier task of the run).
    """
    client, desired, check_mode = task.client, task.desired, task.check_mode
    listed = set()
    for number, item in enumerate(desired["associations"], start=1):
        listed.add(tuple(clean_text(item[part], "associations %d %s" % (number, part)) for part in PARTS))
    present = task.state != "absent"
    if desired.get("purge") and not present:
        raise VaultInputError("purge only applies to state: present")
    if present:
        _check_keys(task, {key for key, dummy_r, dummy_u in listed})
    with object_locks(client, ASSOCIATION, listed, check_mode):
        pairs = {(pair.get("ResourceName"), pair.get("UserName")) for pair in associated_users(client)}
        if not desired.get("purge"):
            pairs &= {(resource, user) for dummy_k, resource, user in listed}
        current = triples_of(pairs, client)
        if present:
            add = listed - current
            purged = {key for key, dummy_r, dummy_u in listed} if desired.get("purge") else set()
            remove = {triple for triple in current - listed if triple[0] in purged}
        else:
            add, remove = set(), listed & current
        after = (current | add) - remove
        if not check_mode:
            dissociated = _send_each(client, remove, associate=False)
            associated = _send_each(client, add, associate=True)
            current = (current | associated) - dissociated
            add, remove = add - associated, remove - dissociated
    task.tracker.record("associations", as_dicts(current), as_dicts(after), bool(add or remove))
    return {"associations": as_dicts(after), "added": as_dicts(add), "removed": as_dicts(remove)}


def _send_each(client, triples, associate):
    """Associate (``associate``) or dissociate each triple. A refusal is followed by one read of the user's keys:
    when it shows the triple as wanted, a parallel run made that change first (on another host, or without the
    lock) and the refusal is no failure. Returns those triples."""
    write = ssh_keys_api.associate_ssh_key if associate else ssh_keys_api.dissociate_ssh_key
    meanwhile = set()
    for triple in sorted(triples):
        name, resource, user = triple
        try:
            write(client, name, resource, user)
        except VaultAPIError as exc:
            if is_refusal(exc) or (name in keys_of_user(client, resource, user)) != associate:
                raise
            meanwhile.add(triple)
    return meanwhile


def _check_keys(task, keys):
    """Refuse keys the vault does not list, before any write; check mode warns instead."""
    known = {item.get("KeyName") for item in list_keys(task.client)}
    refuse_unknown("SSH keys", sorted(keys - known), task.check_mode, task.warn)
