"""The dialects the simulator answers in: ``spec``, as the specification writes its answers (the default), and
``real``, as the recorded answers of real servers of the API family (ManageEngine Password Manager Pro and PAM360)
read where they differ from the spec.

Everything the real dialect changes is declared here, in tables, and applied in one place (``adapt``, called where
``core.app`` shapes every reply, and ``refusal``, where it refuses a caller):

- ``DIFFERENCES``: per operation, the real wording of its success message and, per part of its Details, the keys
  the real servers rename, add, drop when empty, or write with other values;
- ``REAL_EMPTY_LISTS``: a list that is empty is answered with ``totalRows`` 0 and no ``Details`` at all;
- ``REFUSALS``: how a caller is refused (an unknown token, a locked user, a token used from a host it is not
  allowed from), with the HTTP status, the operation name and the message of each dialect;
- ``TOKEN_SOURCES``: where each dialect reads the caller's token from (``token_of``).

The handlers whose answers differ give the *wide* view of their record: the spec's keys plus the real-only keys a
part lists in ``extra`` (and the facts it names in ``instead``, lower-case keys no vault writes). The spec dialect
takes the real-only keys and facts away again, so it answers exactly as the spec does; the real dialect applies the
differences. A part is ``DETAILS`` (Details itself when it is an object, each item when it is a list), the name of
a list inside Details (``ACCOUNT LIST``: each of its items), or ``EACH_VALUE`` (each object that is a value of an
item of Details: ADD ACCOUNTS' status of each account, keyed by its name).

The sources of every difference are listed in ``tests/simulator/README.md`` ("Dialects").
"""

import re
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Union

from vault_simulator.core.replies import SUCCESS, Reply

SPEC = "spec"
REAL = "real"
DIALECTS = (SPEC, REAL)
DEFAULT_DIALECT = SPEC

DETAILS = ""
EACH_VALUE = "*"
NOT_AVAILABLE = "N/A"
# "PASSWORD STATUS": "*****" in the spec, "****" in every recorded answer.
SPEC_HIDDEN_PASSWORD = "*****"
REAL_HIDDEN_PASSWORD = "****"


def two_digit_hour(text):
    """``Dec 1, 2021 9:00 PM`` as the real servers write it: ``Dec 1, 2021 09:00 PM`` (other text unchanged)."""
    return re.sub(r"(\d{4}) (\d):(\d\d) ([AP]M)$", r"\1 0\2:\3 \4", text)


def reworded(pattern, template):
    """A function of a text: ``template`` (with the named groups of ``pattern``) when ``pattern`` matches all of
    it, else the text unchanged."""

    def reword(text):
        match = re.fullmatch(pattern, text) if isinstance(text, str) else None
        return template.format(**match.groupdict()) if match else text

    return reword


@dataclass(frozen=True)
class Part:
    """How the real servers write one part of an operation's Details.

    ``extra``: keys only they write (the handler gives them; the spec dialect drops them). ``instead``: a key
    whose real value is another one the handler gives, a fact named by a lower-case key (``LAST MODIFIED TIME``
    is the time the password was last changed, ``N/A`` before). ``values``: per key, ``{spec value: real value}``
    or a function of the spec value. ``rename``: ``{spec key: real key}``. ``omit_when_empty``: keys left out
    when their value is an empty list. Applied in that order.
    """

    extra: tuple = ()
    instead: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, Union[Mapping[str, str], Callable]] = field(default_factory=dict)
    rename: Mapping[str, str] = field(default_factory=dict)
    omit_when_empty: tuple = ()

    def real(self, record):
        record = {key: value for key, value in record.items() if key not in self.instead}
        shown = dict(record)
        for key, fact in self.instead.items():
            shown[key] = record.get(fact)
        for key, change in self.values.items():
            if key in shown:
                value = shown[key]
                shown[key] = change(value) if callable(change) else change.get(value, value)
        renamed = {self.rename.get(key, key): value for key, value in shown.items() if key not in self.instead.values()}
        return {key: value for key, value in renamed.items() if not (key in self.omit_when_empty and value == [])}

    def spec(self, record):
        hidden = set(self.extra) | set(self.instead.values())
        return {key: value for key, value in record.items() if key not in hidden}


@dataclass(frozen=True)
class Difference:
    """How the real servers answer one operation: ``message`` is the wording of its success message, a text or
    ``(pattern, template)`` (the spec dialect's message matched in full by ``pattern``, its named groups put into
    ``template``); ``parts`` maps a part of Details (``DETAILS``, a list's key or ``EACH_VALUE``) to its ``Part``."""

    message: Union[str, tuple, None] = None
    parts: Mapping[str, Part] = field(default_factory=dict)

    def real_message(self, message):
        if self.message is None:
            return message
        if isinstance(self.message, str):
            return self.message
        return reworded(*self.message)(message)


# The keys the real servers add to the resource of GET RESOURCE ACCOUNTLIST, and to each of its accounts.
REAL_RESOURCE_KEYS = (
    "PASSWORDREQUEST_REASON_MANDATORY",
    "IS_LOCAL_ACCOUNTS_AUTOLOGON_RESTRICTED",
    "IS_SSH_RESTRICTED",
    "NEWSSHTERMINAL",
    "DOMAIN NAME",
    "ALLOWOPENURLINBROWSER",
    "ISRDPRESTRICTED",
)
REAL_ACCOUNT_ITEM_KEYS = (
    "ACCOUNT_DESCRIPTION",
    "AUTOLOGONLIST",
    "PASSWORDREQUEST_REASON_MANDATORY",
    "ISREMOTEAPPONLY",
    "ACCOUNT PASSWORD POLICY",
    "IS_USER_WITH_COMMAND_CONTROL_ROLE",
    "AUTOLOGONSTATUS",
    "IS_TICKETID_REQD_ACW",
    "IS_COMMAND_CONTROL_CONFIGURED",
    "IS_TICKETID_REQD_MANDATORY",
    "IS_TICKETID_REQD",
    "ISREASONREQUIRED",
)
REAL_ACCOUNT_DETAIL_KEYS = (
    "EXPIRY STATUS",
    "COMPLIANT STATUS",
    "COMPLIANT REASON",
    "PASSWORDREQUEST_REASON_MANDATORY",
    "PASSWORD POLICY",
)
# The fact a handler gives for the real LAST MODIFIED TIME: when the password was last changed, N/A before.
PASSWORD_CHANGED = "password changed"
# The audit record: the spec's key -> the real servers' key, and the keys only the real servers write.
REAL_AUDIT_KEYS = {
    "AUDITID": "Audit ID",
    "RESOURCENAME": "Resource Name",
    "ACCOUNTNAME": "User Account",
    "OPERATIONTYPE": "Operation Type",
    "OPERATEDBY": "Operated by",
    "IPADDRESS": "IP Address",
    "USERNAME": "User Name",
    "REASON": "Reason",
    "NAME": "User's Full Name",
    "CLIENT": "Client Type",
    "LASTACCESSEDTIME": "Time Stamp",
}
REAL_AUDIT_EXTRA_KEYS = ("Resource ID", "User Account ID", "Ticket ID", "TIME")

_HIDDEN = {SPEC_HIDDEN_PASSWORD: REAL_HIDDEN_PASSWORD}

DIFFERENCES = {
    "GET RESOURCES": Difference(message="Resources fetched successfully"),
    "GET RESOURCE ACCOUNTLIST": Difference(
        message="Resource details with account list fetched successfully",
        parts={
            DETAILS: Part(
                extra=REAL_RESOURCE_KEYS,
                rename={"PASSWORD POLICY": "RESOURCE PASSWORD POLICY"},
                omit_when_empty=("CUSTOM FIELD",),
            ),
            "ACCOUNT LIST": Part(
                extra=REAL_ACCOUNT_ITEM_KEYS, values={"PASSWORD STATUS": _HIDDEN}, omit_when_empty=("CUSTOM FIELD",)
            ),
        },
    ),
    "GET RESOURCE ACCOUNT DETAILS": Difference(
        message="Account details fetched successfully",
        parts={
            DETAILS: Part(
                extra=REAL_ACCOUNT_DETAIL_KEYS,
                instead={"LAST MODIFIED TIME": PASSWORD_CHANGED},
                values={
                    "DESCRIPTION": {"": NOT_AVAILABLE},
                    "PASSWORD STATUS": _HIDDEN,
                    "LAST ACCESSED TIME": two_digit_hour,
                    "LAST MODIFIED TIME": two_digit_hour,
                },
                omit_when_empty=("CUSTOM FIELD",),
            )
        },
    ),
    "GET_AUDIT": Difference(
        message="Audits fetched successfully.",
        parts={DETAILS: Part(extra=REAL_AUDIT_EXTRA_KEYS, rename=REAL_AUDIT_KEYS)},
    ),
    "GET PASSWORD": Difference(message="Password fetched successfully"),
    "CHANGE PASSWORD": Difference(message="Password changed successfully"),
    "ADD ACCOUNTS": Difference(
        message="Account(s) added successfully",
        # A duplicate's STATUS as a Password Manager Pro client matches it (two spaces, no name).
        parts={
            EACH_VALUE: Part(
                values={
                    "STATUS": reworded(
                        r"Account .* already exists in resource .*", "Account is not added  as it already exists"
                    )
                }
            )
        },
    ),
    "CREATE RESOURCE": Difference(
        message=(r"Resource (?P<name>.*) has been added successfully", "Resource {name} has been added successfully")
    ),
    # As recorded (PAM360): two spaces, no name.
    "EDIT RESOURCE": Difference(message="Resource  modified successfully."),
    "EDIT ACCOUNT": Difference(
        message=(r"Account (?P<name>.*) has been modified successfully", "Account {name} modified successfully")
    ),
    "GET_RESOURCEACCOUNTID": Difference(
        message="Resource ID and account ID fetched successfully for the given resource name and account name."
    ),
}


@dataclass(frozen=True)
class Refusal:
    """How a caller is refused: HTTP status, operation name (``None``: the operation's own) and message."""

    http_status: int
    operation: Optional[str]
    message: str


INVALID_TOKEN, LOCKED_USER, HOST_NOT_ALLOWED = "invalid token", "locked user", "host not allowed"
HOST_NOT_ALLOWED_MESSAGE = "User is not allowed to access from this host"
REFUSALS = {
    SPEC: {
        INVALID_TOKEN: Refusal(401, None, "Authentication failed: the AUTHTOKEN is missing or invalid"),
        LOCKED_USER: Refusal(401, None, "Authentication failed: the user of this AUTHTOKEN is locked"),
        HOST_NOT_ALLOWED: Refusal(403, None, HOST_NOT_ALLOWED_MESSAGE),
    },
    REAL: {
        INVALID_TOKEN: Refusal(
            200, "Authentication", "API key received is not associated to any user. Authentication failed."
        ),
        # Not recorded: the simulator's own message, in the real servers' shape.
        LOCKED_USER: Refusal(200, "Authentication", "Authentication failed: the user of this AUTHTOKEN is locked"),
        HOST_NOT_ALLOWED: Refusal(200, "Authentication", HOST_NOT_ALLOWED_MESSAGE),
    },
}
# Real servers answer an empty list with totalRows 0 and no Details key.
REAL_EMPTY_LISTS = True
# Where the caller's token is read from, in order: ("header" or "query", name). The spec: the header AUTHTOKEN
# only. Real servers: also the query parameter AUTHTOKEN (a Password Manager Pro client sends it so, and is
# answered), and PAM360's header APP_AUTHTOKEN (its integrations send it, with APP_TYPE 17).
TOKEN_SOURCES = {
    SPEC: (("header", "AUTHTOKEN"),),
    REAL: (("header", "AUTHTOKEN"), ("header", "APP_AUTHTOKEN"), ("query", "AUTHTOKEN")),
}


def adapt(dialect, op, reply):
    """``reply`` of operation ``op`` as ``dialect`` answers it (a ``Reply``; anything else is returned as is)."""
    if not isinstance(reply, Reply):
        return reply
    difference = DIFFERENCES.get(op, Difference())
    details = reply.details
    for part_name, part in difference.parts.items():
        shape = part.real if dialect == REAL else part.spec
        details = _reshaped(details, part_name, shape)
    message = reply.message
    if dialect == REAL:
        if reply.status == SUCCESS:
            message = difference.real_message(message)
        if REAL_EMPTY_LISTS and details == [] and "totalRows" in reply.extra:
            details = None
    return reply._replace(message=message, details=details)


def refusal(dialect, reason):
    """The ``Refusal`` of ``dialect`` for ``reason`` (``INVALID_TOKEN``, ``LOCKED_USER``, ``HOST_NOT_ALLOWED``)."""
    return REFUSALS[dialect][reason]


def token_of(dialect, headers, query):
    """The caller's token as ``dialect`` reads it from the request's ``headers`` and ``query``, or ``None``."""
    for where, name in TOKEN_SOURCES[dialect]:
        token = (headers if where == "header" else query).get(name)
        if token:
            return token
    return None


def _reshaped(details, part_name, shape):
    if part_name == EACH_VALUE:
        if isinstance(details, list):
            return [
                {key: shape(value) if isinstance(value, dict) else value for key, value in item.items()}
                if isinstance(item, dict)
                else item
                for item in details
            ]
        return details
    if part_name == DETAILS:
        if isinstance(details, list):
            return [shape(item) if isinstance(item, dict) else item for item in details]
        return shape(details) if isinstance(details, dict) else details
    if isinstance(details, dict) and isinstance(details.get(part_name), list):
        items = [shape(item) if isinstance(item, dict) else item for item in details[part_name]]
        return {**details, part_name: items}
    return details
