# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The gateway (plugins/module_utils/_api): one declared function per catalogue row, the only code that calls the
client, each call fitting its row; and the client's and the test double's refusal of a call that does not."""

from __future__ import annotations

import importlib
import inspect
import pathlib
import pkgutil
import re

import pytest

from ansible_collections.credvault.vault.plugins.module_utils import _api
from ansible_collections.credvault.vault.plugins.module_utils._api._declare import (
    DECLARED,
    UNSUPPORTED,
    Call,
    declares,
    require,
)
from ansible_collections.credvault.vault.plugins.module_utils._catalogue import CATALOGUE
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultCallError,
    VaultError,
    VaultResponseError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.tests.unit.fakes import ScriptedClient

PLUGINS = pathlib.Path(__file__).resolve().parents[4] / "plugins"
# The files that may name catalogue rows: the catalogue, the answers table keyed by row, the client and the gateway.
ROW_OWNERS = ("module_utils/_catalogue.py", "module_utils/_answers.py", "module_utils/_client.py", "module_utils/_api/")
CLIENT_CALL = re.compile(r"\.(call|read_optional|check_supported)\(")
# Options named like a row: vault_user's reset_mfa (the option asks for what the row reset_mfa does).
OPTIONS_NAMED_LIKE_A_ROW = ("reset_mfa",)


def gateway_modules():
    return [
        importlib.import_module("%s.%s" % (_api.__name__, info.name))
        for info in pkgutil.iter_modules(_api.__path__)
        if not info.name.startswith("_")
    ]


def declared():
    gateway_modules()
    return dict(DECLARED)


def plugin_sources():
    for path in sorted(PLUGINS.rglob("*.py")):
        relative = path.relative_to(PLUGINS).as_posix()
        if not relative.startswith(ROW_OWNERS):
            yield relative, path.read_text(encoding="utf-8")


def test_every_catalogue_row_has_its_one_declared_function():
    functions = declared()
    assert sorted(functions) == sorted(CATALOGUE)
    for key, function in functions.items():
        assert function.__name__ == key
        assert function.endpoint is CATALOGUE[key]


def test_no_plugin_code_outside_the_gateway_calls_the_client_or_names_a_row():
    keys = sorted(set(CATALOGUE) - set(OPTIONS_NAMED_LIKE_A_ROW), key=len, reverse=True)
    rows = re.compile(r"""["'](%s)["']""" % "|".join(keys))
    offenders = []
    for relative, text in plugin_sources():
        for number, line in enumerate(text.splitlines(), 1):
            if CLIENT_CALL.search(line) or rows.search(line):
                offenders.append("%s:%d: %s" % (relative, number, line.strip()))
    assert offenders == []


def _arguments(function):
    """Values for every required parameter after ``call``: a mapping for an input (``details``, ``fields``, a
    ``certificate`` selector), nothing for ``files``, else an id or name."""
    values = {}
    for name, parameter in list(inspect.signature(function).parameters.items())[1:]:
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if name in ("details", "fields", "certificate"):
            values[name] = {}
        elif name == "files":
            values[name] = None
        elif parameter.default is not inspect.Parameter.empty:
            continue
        else:
            values[name] = "7"
    return values


@pytest.mark.parametrize("key", sorted(CATALOGUE))
def test_each_declared_function_sends_a_call_that_fits_its_row(key):
    """The scripted client refuses a call with other placeholders or query names than the row's (VaultCallError):
    whatever the function makes of an empty answer, its call fitted the row and was sent once."""
    function = declared()[key]
    client = ScriptedClient({key: {}})
    try:
        function(client, **_arguments(function.__wrapped__))
    except VaultCallError:
        raise
    except (VaultError, TypeError, ValueError, AttributeError):
        pass  # an empty answer is no answer the function can read: the call was made and fitted its row
    assert [call[0] for call in client.calls] == [key]


def test_a_call_that_does_not_fit_its_row_is_a_typed_error_of_the_client_and_of_the_double(make_client):
    client = make_client()
    scripted = ScriptedClient({"get_account_list": {}})
    for caller in (client, scripted):
        with pytest.raises(VaultCallError, match=r"placeholders \{resource\}, the path .* has \{resource_id\}"):
            caller.call("get_account_list", path={"resource": "1"})
        with pytest.raises(VaultCallError, match="query parameter NAME is not one of the row's"):
            caller.call("get_user_id", query={"NAME": "ann"})
        with pytest.raises(VaultCallError, match="no endpoint 'get_acount_list'"):
            caller.call("get_acount_list")
    assert client.requests_sent == 0
    assert scripted.calls == []


def test_the_double_applies_the_gates_of_the_build_it_claims():
    scripted = ScriptedClient({"get_totp": {"TOTP": "123456"}}, edition="B", build=6320)
    with pytest.raises(VaultUnsupportedError, match="needs edition A from build 12430"):
        scripted.call("get_totp", path={"account_id": "1"})
    assert scripted.calls == []


class _Answering:
    """A client whose every call raises ``error``."""

    def __init__(self, error):
        self.error = error

    def call(self, key, **kwargs):
        raise self.error


@pytest.mark.parametrize("status", [404])
def test_an_unserved_optional_row_is_unsupported(status):
    error = VaultResponseError("GET ASSOCIATED GROUPS: the vault answered HTTP %d" % status, http_status=status)
    call = Call(_Answering(error), "get_associated_groups", UNSUPPORTED)
    with pytest.raises(VaultUnsupportedError, match="the vault does not serve it: GET ASSOCIATED GROUPS"):
        call(path={"resource_id": "1"})


@pytest.mark.parametrize("status, unserved", [(500, UNSUPPORTED), (404, "fails")])
def test_other_failures_and_rows_that_must_be_served_raise_the_clients_error(status, unserved):
    error = VaultAPIError("boom", http_status=status)
    call = Call(_Answering(error), "get_associated_groups", unserved)
    with pytest.raises(VaultAPIError, match="boom"):
        call(path={"resource_id": "1"})


def test_require_refuses_what_the_claimed_build_lacks_before_anything_is_sent():
    functions = declared()
    client = ScriptedClient({}, edition="A", build=11000)
    with pytest.raises(VaultUnsupportedError, match="GET ASSOCIATED GROUPS .* needs edition A from build 12000"):
        require(client, functions["get_resource_id"], functions["get_associated_groups"])
    require(ScriptedClient({}), functions["get_associated_groups"])
    assert client.calls == []


def test_a_row_is_declared_once_and_only_a_catalogued_one():
    declared()
    with pytest.raises(ValueError, match="declared twice"):
        declares("get_resources")(lambda call: None)
    with pytest.raises(ValueError, match="no catalogue row get_resource_list"):
        declares("get_resource_list")


def test_a_declared_function_refuses_arguments_it_does_not_name():
    with pytest.raises(TypeError):
        declared()["get_account_list"](ScriptedClient({"get_account_list": {}}), resource="1")
