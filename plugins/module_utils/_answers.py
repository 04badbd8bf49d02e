# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""How the collection reads the vault's answers: per catalogue row, the keys it reads, each with the spec's
spelling, the other spellings real servers answer with, and what their placeholders for "nothing" mean.

Real servers of the API family answer otherwise than the spec in places (``docs/docsite/rst/guide_real_vaults.rst``
lists every known difference with its source; ``tests/real_answers`` holds the recorded bodies): the account list
names the resource's policy ``RESOURCE PASSWORD POLICY`` where the spec says ``PASSWORD POLICY``, an empty account
description is ``N/A``, audit records are keyed ``Audit ID``, ``Operation Type``, ``Time Stamp`` ... where the spec
shows ``AUDITID``, ``OPERATIONTYPE``, ``LASTACCESSEDTIME``, an empty list comes without ``Details``, a resource
without custom fields without ``CUSTOM FIELD``. The client passes every successful answer through ``read_answer``,
so the domain code, the lookups, the inventory plugin and the event source read the spec's spelling only, and one
table here says what each spelling and placeholder means:

- a key found under another spelling is renamed to the spec's (the other spelling is dropped);
- a placeholder (``N/A``, ``Not Applicable``, an empty or blank string) becomes the key's ``unset`` value;
- a key absent in every spelling stays absent, or is filled with ``absent`` (a list without items); where the
  collection compares it with a task's option (``_converge.VaultObject.field_changes``), its absence is a
  ``VaultResponseError`` naming the key and its spellings (``absent_key_error``): a setting that cannot be read must
  neither look changed nor look unchanged;
- keys the table does not name pass through untouched.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace

from ._errors import VaultResponseError

# What real servers write for "nothing": "DESCRIPTION": "N/A" (Password Manager Pro's account details), "N/A" and
# "Not Applicable" in audit records (the spec's audit record: "N/A or Not Applicable where not relevant").
PLACEHOLDERS = ("n/a", "not applicable")

LEFT_OUT = object()


def is_placeholder(value):
    """True for a value that means "nothing": None, an empty or blank string, ``N/A``, ``Not Applicable``."""
    if value is None:
        return True
    return isinstance(value, str) and (not value.strip() or value.strip().lower() in PLACEHOLDERS)


def _epoch_milliseconds(value):
    """``TIME`` of a real audit record (epoch milliseconds, ``"1710222344835"``) in the spec's LASTACCESSEDTIME
    format (``YYYY-MM-DD HH:MM:SS.fff``, UTC), or None."""
    try:
        milliseconds = int(str(value).strip())
        moment = datetime.datetime.fromtimestamp(milliseconds / 1000, datetime.timezone.utc)
    except (TypeError, ValueError, OverflowError, OSError):
        return None
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + "%03d" % (milliseconds % 1000)


@dataclass(frozen=True)
class Key:
    """One key the collection reads: ``name`` is the spec's spelling; ``aliases`` the other spellings real servers
    use; ``unset`` what a placeholder becomes; ``absent`` what a key missing in every spelling becomes
    (``LEFT_OUT``: nothing); ``derived`` a ``(key, function)`` computing the value from
    another key when no spelling is there; ``items`` the record of each item when the value is a list."""

    name: str
    aliases: tuple = ()
    unset: object = ""
    absent: object = LEFT_OUT
    derived: tuple | None = None
    items: Record | None = None

    @property
    def spellings(self):
        return (self.name,) + self.aliases


@dataclass(frozen=True)
class Record:
    """The keys of one object of an answer."""

    keys: tuple

    def read(self, record):
        """``record`` in the spec's spelling, its placeholders unset."""
        result = dict(record)
        for key in self.keys:
            spelling = next((name for name in key.spellings if name in record), None)
            for name in key.aliases:
                result.pop(name, None)
            if spelling is not None:
                value = record[spelling]
            elif key.derived is not None and key.derived[0] in record:
                value = key.derived[1](record[key.derived[0]])
            elif key.absent is LEFT_OUT:
                continue
            else:
                value = key.absent
            result[key.name] = self._value(key, value)
        return result

    @staticmethod
    def _value(key, value):
        if key.items is not None:
            if is_placeholder(value):
                return []
            if isinstance(value, list):
                return [key.items.read(item) if isinstance(item, dict) else item for item in value]
            return value
        return key.unset if is_placeholder(value) else value


@dataclass(frozen=True)
class Answer:
    """What one catalogue row answers: ``record`` when Details is one object, ``items`` when it is a list (an
    absent Details is an empty list: real servers leave it out when nothing is found, with ``totalRows: 0``)."""

    record: Record | None = None
    items: Record | None = None

    def read(self, response):
        details = response.details
        if self.items is not None:
            if details is None or is_placeholder(details):
                details = []
            if isinstance(details, list):
                details = [self.items.read(item) if isinstance(item, dict) else item for item in details]
        elif self.record is not None and isinstance(details, dict):
            details = self.record.read(details)
        return replace(response, details=details)


def read_answer(key, response):
    """``response`` (a ``VaultResponse`` of catalogue row ``key``) with its Details in the spec's spelling."""
    answer = ANSWERS.get(key)
    if answer is None or response.content is not None and not response.body:
        return response  # a row whose answer the collection reads as is, or a file
    return answer.read(response)


_CUSTOM_FIELDS = Key("CUSTOM FIELD", absent=[], items=Record(()))
_RESOURCE_ITEM = Record((Key("RESOURCE DESCRIPTION"), Key("DNS NAME")))
_RESOURCE_DETAIL = Record(
    (
        Key("RESOURCE TYPE"),
        Key("RESOURCE DESCRIPTION"),
        Key("RESOURCE URL"),
        Key("DEPARTMENT"),
        Key("LOCATION"),
        # "RESOURCE PASSWORD POLICY" in the account lists of Password Manager Pro and PAM360.
        Key("PASSWORD POLICY", aliases=("RESOURCE PASSWORD POLICY",)),
        Key("RESOURCE OWNER"),
        Key("DNS NAME"),
        _CUSTOM_FIELDS,
        Key("ACCOUNT LIST", absent=[], items=Record(())),
    )
)
_ACCOUNT_DETAIL = Record(
    (
        # "DESCRIPTION": "N/A" for an account without one (Password Manager Pro).
        Key("DESCRIPTION"),
        Key("LAST ACCESSED TIME", unset=None),
        # "LAST MODIFIED TIME": "N/A" for an account never changed (Password Manager Pro).
        Key("LAST MODIFIED TIME", unset=None),
        _CUSTOM_FIELDS,
    )
)

# An audit record of the spec (AUDITID, RESOURCENAME, ..., LASTACCESSEDTIME) or of real servers: spaced title case
# ("Audit ID", "Resource Name", "User Account", "Operation Type", "Operated by", "IP Address", "User Name",
# "User's Full Name", "Reason", "Client Type", "Time Stamp") with TIME in epoch milliseconds. "N/A" and
# "Not Applicable" mean the field does not apply: None.
_AUDIT_RECORD = Record(
    (
        Key("AUDITID", aliases=("Audit ID",), unset=None),
        Key("RESOURCENAME", aliases=("Resource Name",), unset=None),
        Key("ACCOUNTNAME", aliases=("Account Name", "User Account"), unset=None),
        Key("OPERATIONTYPE", aliases=("Operation Type",), unset=None),
        Key("OPERATEDBY", aliases=("Operated By", "Operated by"), unset=None),
        Key("IPADDRESS", aliases=("IP Address",), unset=None),
        Key("USERNAME", aliases=("User Name",), unset=None),
        Key("NAME", aliases=("User's Full Name",), unset=None),
        Key("REASON", aliases=("Reason",), unset=None),
        Key("CLIENT", aliases=("Client Type",), unset=None),
        Key(
            "LASTACCESSEDTIME",
            aliases=("Time Stamp",),
            unset=None,
            derived=("TIME", _epoch_milliseconds),
        ),
    )
)

ANSWERS = {
    "get_resources": Answer(items=_RESOURCE_ITEM),
    "get_account_list": Answer(record=_RESOURCE_DETAIL),
    "get_account_details": Answer(record=_ACCOUNT_DETAIL),
    "get_audit": Answer(items=_AUDIT_RECORD),
}


def spellings(name):
    """Every spelling of the key the spec calls ``name``, as the answers of any row declare them."""
    found = [name]
    for answer in ANSWERS.values():
        for record in (answer.record, answer.items):
            for key in record.keys if record else ():
                if key.name == name:
                    found.extend(alias for alias in key.aliases if alias not in found)
    return found


def absent_key_error(label, name, option):
    """The error for an answer that lacks, in every known spelling, the key ``name`` an option is compared with."""
    return VaultResponseError(
        "%s: the vault's answer has no %s (nor any other known spelling of it: %s), so %s cannot be compared; "
        "this vault answers in a way the collection does not know" % (label, name, ", ".join(spellings(name)), option)
    )
