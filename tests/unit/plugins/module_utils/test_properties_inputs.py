# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Property-based bad input for the modules' own checks (issue 15, "Bad input").

Whatever a task gives (any text, number or structure its argspec lets through), the domain checks give a value or
a ``VaultError`` (``VaultInputError``, ``VaultConfigError``...), never another exception; a secret option never
appears in the message; and what the domain refuses is refused before any request: a ``ScriptedClient`` with no
answers records no call. ``IMPOSSIBLE`` lists the option combinations that the argspecs cannot refuse (AnsibleModule
lets them through) and the domains must.

The examples are bounded and the same on every run (the ``credvault`` profile of tests/unit/conftest.py)."""

from __future__ import annotations

import base64
import importlib
import ipaddress
import re
from unittest import mock

import pytest
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from ansible_collections.credvault.vault.plugins.module_utils import (
    _account,
    _account_password,
    _audit,
    _certificate,
    _certificate_deploy,
    _certificate_group,
    _certificate_share,
    _csr,
    _password_request,
    _remote_password_reset,
    _resource,
    _resource_group,
    _share,
    _ssh_key,
    _ssl_discovery,
    _user,
    _user_group,
)
from ansible_collections.credvault.vault.plugins.module_utils._api import certificates as certificates_api
from ansible_collections.credvault.vault.plugins.module_utils._certificate_input import (
    certificate_input,
    certificate_input_argument_spec,
)
from ansible_collections.credvault.vault.plugins.module_utils._certificate_lookup import normalized_serial
from ansible_collections.credvault.vault.plugins.module_utils._checks import clean_text
from ansible_collections.credvault.vault.plugins.module_utils._custom_fields import custom_field_strings
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultError, VaultInputError
from ansible_collections.credvault.vault.plugins.module_utils._totp import decode_secret
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient, run_entry

# Starts every value of a secret (no_log) option, so that its echo in a message is seen.
SECRET_MARK = "Sx9-no-log-value-"
MISSING_FILE = "/nonexistent/credvault-properties/file"
# Characters that names, URLs and JSON treat specially, drawn often.
SPECIAL_CHARACTERS = " /\\%#?&+\"',:@\n\t\x00\u00a0\u00e9\u00df\u0130\U0001f511"
texts = st.text(st.one_of(st.characters(), st.sampled_from(SPECIAL_CHARACTERS)), max_size=12)
names = st.one_of(texts, st.sampled_from(["web-01", "root", "a/b", " padded ", "", "DE", "10.0.0.1", "0a:1B"]))
numbers = st.one_of(st.integers(-3, 70000), st.integers())
scalars = st.one_of(st.none(), st.booleans(), numbers, st.floats(), texts)
json_values = st.recursive(
    scalars, lambda children: st.lists(children, max_size=3) | st.dictionaries(texts, children, max_size=3)
)


class NoAnswers(ScriptedClient):
    """A client with no answer at all: any request fails the test with a ``KeyError`` naming its key."""

    timeout = 30.0

    def __init__(self, edition=None, build=None):
        super().__init__({}, edition=edition, build=build)


def _no_other_exception(run, *args):
    """``run(*args)``, letting only a ``VaultError`` through; returns it (or None)."""
    try:
        run(*args)
    except VaultError as exc:
        return exc
    return None


@given(value=st.one_of(json_values, names))
def test_clean_text_gives_the_text_as_given_or_an_input_error(value):
    try:
        cleaned = clean_text(value, "name")
    except VaultInputError:
        return
    assert cleaned is None if value is None else (cleaned == value == value.strip() and cleaned)


labels = st.one_of(names, numbers, st.floats())


@given(st.dictionaries(labels, json_values, max_size=4))
def test_custom_fields_give_text_labels_and_values_or_an_input_error(fields):
    try:
        strings = custom_field_strings(fields, "custom_fields")
    except VaultInputError:
        return
    assert all(isinstance(label, str) and label == label.strip() and label for label in strings)
    assert all(isinstance(value, str) for value in strings.values())


def _strategy(option):
    """Values AnsibleModule could hand the domain for one argspec entry (its type, choices and elements)."""
    if option.get("choices"):
        value = st.sampled_from(option["choices"])
    elif option.get("type") == "path":
        value = st.sampled_from([MISSING_FILE, __file__, "/"])
    elif option.get("type") == "int":
        value = numbers
    elif option.get("type") == "bool":
        value = st.booleans()
    elif option.get("type") == "float":
        value = st.floats()
    elif option.get("type") == "raw":
        value = json_values
    elif option.get("type") == "list":
        element = _strategy({"type": option.get("elements", "str"), "options": option.get("options")})
        value = st.lists(element, max_size=3)
    elif option.get("type") == "dict":
        if option.get("options"):
            value = _options_strategy(option["options"])
        else:
            value = st.dictionaries(names, st.one_of(scalars, names), max_size=3)
    elif option.get("no_log"):
        value = st.builds(SECRET_MARK.__add__, texts)
    else:
        value = names
    return value


def _options_strategy(spec):
    """Task options: the required ones always, any of the others (AnsibleModule hands the module None for those
    left out, and refuses an explicit null for a choice or a bool)."""
    required = {name: _strategy(option) for name, option in spec.items() if option.get("required")}
    optional = {name: _strategy(option) for name, option in spec.items() if not option.get("required")}
    return st.fixed_dictionaries(required, optional=optional)


@given(st.data())
def test_certificate_input_gives_details_of_text_or_an_input_error(data):
    spec = dict(certificate_input_argument_spec(), common_name={"type": "str"})
    result = ArgumentSpecValidator(spec).validate(data.draw(_options_strategy(spec)))
    assume(not result.error_messages)
    params = result.validated_parameters
    try:
        details = certificate_input(params)
    except VaultInputError as exc:
        assert SECRET_MARK not in str(exc)
        return
    assert all(isinstance(key, str) and isinstance(value, str) for key, value in details.items())
    if "COUNTRY" in details:
        assert re.fullmatch("[A-Z]{2}", details["COUNTRY"])


@given(country=st.one_of(names, st.from_regex(r"[A-Za-z\u00e9]{2}\s?", fullmatch=True)))
@example(country="DE\n")
def test_country_name_gives_two_letters_or_an_input_error(country):
    try:
        details = certificate_input({"country_name": country})
    except VaultInputError:
        return
    assert re.fullmatch("[A-Z]{2}", details["COUNTRY"])


@given(mail=st.one_of(st.none(), names, st.from_regex(r"[a-z]{1,3}@[a-z]{1,3}\s?", fullmatch=True)))
@example(mail="ops@example.com\n")
def test_certificate_group_mail_is_an_address_or_an_input_error(mail):
    desired = {"name": "g", "state": "present", "mail": mail}
    try:
        _certificate_group.validate(desired)
    except VaultInputError:
        return
    assert mail in (None, "") or (mail.count("@") == 1 and not any(char.isspace() for char in mail))


@given(names)
@example(base64.b32encode(b"12345678901234567890").decode().rstrip("=").lower())
def test_totp_secret_decodes_to_bytes_or_a_value_error(secret):
    try:
        key = decode_secret(secret)
    except ValueError:
        return
    assert isinstance(key, bytes)


addresses = st.one_of(names, st.ip_addresses(v=4).map(str), st.ip_addresses(v=6).map(str))


@given(
    host=st.one_of(st.none(), names),
    start=st.one_of(st.none(), addresses),
    end=st.one_of(st.none(), addresses),
    port=st.one_of(st.none(), numbers),
    timeout=st.one_of(st.none(), numbers),
)
def test_ssl_discovery_input_gives_a_request_or_an_input_error(host, start, end, port, timeout):
    params = {"host": host, "start_address": start, "end_address": end, "port": port, "discovery_timeout": timeout}
    try:
        discover, details, probed = _ssl_discovery.request_of(params)
    except VaultInputError:
        return
    assert 0 < int(details["PORT"]) < 65536 and int(details["TIMEOUT"]) >= 1
    if discover is certificates_api.discover_ssl_range:
        first, last = ipaddress.IPv4Address(details["StartIpAddress"]), ipaddress.IPv4Address(details["EndIpAddress"])
        assert probed == int(last) - int(first) + 1 >= 1
    else:
        assert probed == 1 and not any(char.isspace() for char in details["HOST"])


@given(
    audit_type=st.one_of(st.sampled_from(sorted(_audit.AUDIT_TYPES)), names),
    duration=st.one_of(st.sampled_from(sorted(_audit.DURATIONS)), names),
    max_records=st.one_of(st.none(), numbers),
    page_size=numbers,
    accessed=st.one_of(json_values, st.datetimes().map(str)),
)
def test_audit_options_give_a_query_or_an_input_error(audit_type, duration, max_records, page_size, accessed):
    assert _audit.iso_time(accessed) is None or isinstance(_audit.iso_time(accessed), str)
    try:
        kind, period = _audit.check_input(audit_type, duration, max_records, page_size)
    except VaultInputError:
        return
    assert kind in _audit.AUDIT_TYPES.values() and period in _audit.DURATIONS.values()


@given(st.one_of(names, numbers))
def test_serial_numbers_give_hex_digits_or_an_input_error(value):
    try:
        serial = normalized_serial(value)
    except VaultInputError:
        return
    assert re.fullmatch("[0-9a-f]+", serial)


@given(key_type=st.one_of(st.sampled_from(_ssh_key.KEY_TYPES), names), length=st.one_of(st.none(), numbers))
def test_ssh_key_type_and_length_give_a_length_or_an_input_error(key_type, length):
    try:
        expected = _ssh_key.check_type_and_length(key_type, length)
    except VaultInputError:
        return
    assert expected in _ssh_key.KEY_LENGTHS[key_type]


dates = st.one_of(st.dates().map(str), st.from_regex(r"\d{4}-\d{2}-\d{2}\s?", fullmatch=True))


@given(expiry=st.one_of(st.none(), names, dates), page_size=numbers)
@example(expiry="2030-01-31\n", page_size=1)
def test_user_expiry_and_page_size_pass_or_give_an_input_error(expiry, page_size):
    """``EXPIRYDATE`` as sent is ``yyyy-mm-dd`` in ASCII digits, or ``NeverExpires``."""
    if _no_other_exception(_user.check_expiry, expiry) is None and expiry not in (None, _user.NEVER_EXPIRES):
        assert re.fullmatch("[0-9]{4}-[0-9]{2}-[0-9]{2}", expiry)
    _no_other_exception(_user.check_page_size, page_size)


# Each module and its domain entry point, run as the module base runs it (``run_entry``).
DOMAINS = {
    "vault_account": _account.converge,
    "vault_account_password": _account_password.converge,
    "vault_audit_info": _audit.describe,
    "vault_certificate": _certificate.converge,
    "vault_certificate_deploy": _certificate_deploy.converge,
    "vault_certificate_group": _certificate_group.converge,
    "vault_certificate_share": _certificate_share.converge,
    "vault_csr": _csr.converge,
    "vault_password_request": _password_request.converge,
    "vault_remote_password_reset": _remote_password_reset.converge,
    "vault_resource": _resource.converge,
    "vault_resource_group": _resource_group.converge,
    "vault_share": _share.converge,
    "vault_ssh_key": _ssh_key.converge,
    "vault_ssl_discovery": _ssl_discovery.converge,
    "vault_user": _user.converge,
    "vault_user_group": _user_group.converge,
}
CONSTRAINTS = ("mutually_exclusive", "required_together", "required_one_of", "required_if", "required_by")


class _Captured(Exception):
    pass


def module_checks(name):
    """``(argument spec, AnsibleModule's checks)`` of module ``name``, as its main() gives them to VaultModule
    (the connection options left out: the client is not made here)."""
    module = importlib.import_module("ansible_collections.credvault.vault.plugins.modules.%s" % name)
    captured = {}

    def record(argument_spec, **kwargs):
        captured.update(kwargs, argument_spec=argument_spec)
        raise _Captured

    with mock.patch.object(module, "VaultModule", record):
        with pytest.raises(_Captured):
            module.main()
    return captured["argument_spec"], {key: value for key, value in captured.items() if key in CONSTRAINTS}


def validated(name, params):
    """``params`` as AnsibleModule hands them to the module (defaults, aliases), or None when it refuses them."""
    spec, checks = module_checks(name)
    result = ArgumentSpecValidator(spec, **checks).validate(params)
    return None if result.error_messages else result.validated_parameters


@pytest.mark.parametrize("name", sorted(DOMAINS))
@given(data=st.data(), check_mode=st.booleans())
# Options drawn one by one break the modules' exclusive and required options often (vault_certificate_share keeps
# about one draw in four); those AnsibleModule refuses are discarded, the rest are still max_examples.
@settings(suppress_health_check=[HealthCheck.filter_too_much])
def test_module_input_is_refused_before_any_request_or_sent(name, data, check_mode):
    spec, dummy_checks = module_checks(name)
    params = validated(name, data.draw(_options_strategy(spec)))
    assume(params is not None)
    client = NoAnswers()
    try:
        run_entry(DOMAINS[name], client, params, check_mode)
    except VaultError as exc:
        assert client.calls == []
        assert SECRET_MARK not in str(exc)
    except KeyError as exc:
        # The input was accepted: the first request found no scripted answer.
        assert client.calls and exc.args == (client.calls[-1][0],)


# Option combinations AnsibleModule accepts (``validated`` shows it) and the domain refuses, before any request:
# (module, options, what the refusal says).
IMPOSSIBLE = [
    ("vault_account", {"resource": "web", "name": "root", "password": ""}, "password must not be empty"),
    ("vault_account", {"resource": "web", "name": "root", "totp_validity": 0}, "totp_validity must be between"),
    ("vault_account", {"resource": "web", "name": "root", "totp_secret": "not base32!"}, "not a base32 string"),
    ("vault_account_password", {"resource": "web", "account": "root", "password": ""}, "must not be empty"),
    ("vault_audit_info", {"max_records": 0}, "max_records must be 1 or more"),
    ("vault_audit_info", {"page_size": 5000}, "page_size must be from 1 to 1000"),
    ("vault_certificate_deploy", {"common_name": "www", "serial_number": "xyz"}, "is not a serial number"),
    ("vault_certificate_group", {"name": "g", "state": "absent", "new_name": "h"}, "only with state present"),
    ("vault_certificate_group", {"name": "g", "mail": "nobody"}, "is not an e-mail address"),
    ("vault_certificate_share", {"common_name": "www", "users": []}, "give the users or user_groups"),
    ("vault_csr", {"common_name": "www", "validity_type": "days"}, "validity_type needs validity"),
    ("vault_csr", {"common_name": "www", "country_name": "Germany"}, "is not a two-letter country code"),
    ("vault_password_request", {"resource": "web", "account": "root", "requester": "bob"}, "requester's own token"),
    (
        "vault_password_request",
        {"resource": "web", "account": "root", "state": "approved", "requester": "bob", "reason": "r"},
        "reason is sent only",
    ),
    (
        "vault_password_request",
        {"resource": "web", "account": "root", "state": "requested", "wait_timeout": 30},
        "only for state checked_out",
    ),
    (
        "vault_password_request",
        {"resource": "web", "account": "root", "state": "checked_out", "wait_timeout": 30, "wait_interval": 0},
        "wait_interval must be at least 1 second",
    ),
    ("vault_password_request", {"resource": "web", "account": "root", "wait_timeout": -1}, "must be 0"),
    ("vault_remote_password_reset", {"resources": []}, "resources must name at least one resource"),
    (
        "vault_remote_password_reset",
        {"resources": ["web"], "login_account": "root", "domain_resource": "dc"},
        "only apply with resource_identifier others",
    ),
    (
        "vault_resource",
        {"name": "web", "type": "Linux", "src": __file__},
        "a file can only be uploaded with type File Store or License Store",
    ),
    (
        "vault_resource_group",
        {"name": "g", "criteria": [{"condition": "RESOURCENAME", "operator": "contains", "value": "web"}]},
        "criteria are only for dynamic groups",
    ),
    ("vault_resource_group", {"name": "g", "parent": "g"}, "cannot be its own parent"),
    ("vault_share", {"resources": ["web"], "users": ["bob"], "state": "absent", "access": "view"}, "state=absent"),
    (
        "vault_share",
        {"resources": ["web"], "users": ["bob"], "access": "view", "remote_apps": ["rdp"]},
        "only for access remoteapponly",
    ),
    ("vault_share", {"resources": ["web"], "access": "view"}, "no one to share with"),
    ("vault_ssh_key", {"name": "k", "src": __file__, "comment": "c"}, "an imported key takes its type"),
    ("vault_ssh_key", {"name": "k"}, "key_type or src is needed"),
    ("vault_ssh_key", {"name": "k", "key_type": "ed25519", "length": 2048}, "is not accepted for key_type"),
    (
        "vault_ssl_discovery",
        {"start_address": "192.0.2.9", "end_address": "192.0.2.1"},
        "comes before start_address",
    ),
    ("vault_user", {"name": "alice", "token_dest": "/tmp/token"}, "token_dest is only for API users"),
    ("vault_user", {"name": "api", "api_user": True, "first_name": "A"}, "an API user is created without"),
    ("vault_user_group", {"name": "g", "ids": [3]}, "names and ids are for state absent"),
    ("vault_user_group", {"names": ["g"], "state": "absent", "members": ["bob"]}, "only with state present"),
    ("vault_user_group", {"name": "g", "members": ["bob"], "absent_members": ["bob"]}, "in both members and"),
]


@pytest.mark.parametrize("check_mode", [False, True])
@pytest.mark.parametrize("name, options, refusal", IMPOSSIBLE)
def test_impossible_combinations_are_refused_before_any_request(name, options, refusal, check_mode):
    params = validated(name, options)
    assert params is not None, "AnsibleModule refuses it already: not a combination for the domain"
    client = NoAnswers(edition="B", build=99999)
    with pytest.raises(VaultInputError, match=re.escape(refusal)):
        run_entry(DOMAINS[name], client, params, check_mode)
    assert client.calls == []
