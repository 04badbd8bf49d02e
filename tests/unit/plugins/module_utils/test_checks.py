# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Names, labels and types the vault would trim are refused before anything is sent."""

from __future__ import annotations

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._checks import clean_text
from ansible_collections.credvault.vault.plugins.module_utils._custom_fields import custom_field_strings
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultInputError


@pytest.mark.parametrize("value", ["web", "web 01", "a/b", "é-ü", "x"])
def test_clean_text_keeps_names_without_surrounding_spaces(value):
    assert clean_text(value, "name") == value


def test_clean_text_lets_an_option_not_given_through():
    assert clean_text(None, "name") is None


@pytest.mark.parametrize(
    "value, reason",
    [
        ("", "must not be empty"),
        ("   ", "must not be empty"),
        ("\t", "must not be empty"),
        (" web", "leading or trailing spaces"),
        ("web ", "leading or trailing spaces"),
        ("web\n", "leading or trailing spaces"),
        ("\u00a0web", "leading or trailing spaces"),
    ],
)
def test_clean_text_refuses_what_the_vault_would_trim(value, reason):
    with pytest.raises(VaultInputError, match=reason) as raised:
        clean_text(value, "type")
    assert str(raised.value).startswith("type ")


@pytest.mark.parametrize(
    "value, code",
    [
        ("robot\n1", "U+000A"),
        ("robot\r\nX-Injected", "U+000A, U+000D"),
        ("a\tb", "U+0009"),
        ("nul\x00name", "U+0000"),
        ("del\x7fname", "U+007F"),
        ("c1\x85name", "U+0085"),
        ("line\u2028separator", "U+2028"),
        ("para\u2029separator", "U+2029"),
    ],
)
def test_clean_text_refuses_control_characters_inside(value, code):
    with pytest.raises(VaultInputError, match="holds a control character") as raised:
        clean_text(value, "name")
    assert str(raised.value).startswith("name ") and "(%s)" % code in str(raised.value)


def test_clean_text_refuses_what_is_not_a_string():
    with pytest.raises(VaultInputError, match="name must be a string"):
        clean_text(["web"], "name")


def test_custom_field_values_are_strings_and_numbers_as_written():
    assert custom_field_strings({"Port": 8080, "Ratio": 1.5, "Env": "prod", 2024: "year", "Empty": ""}, "f") == {
        "Port": "8080",
        "Ratio": "1.5",
        "Env": "prod",
        "2024": "year",
        "Empty": "",
    }
    assert custom_field_strings(None, "f") is None


@pytest.mark.parametrize(
    "value, kind", [(None, "null"), (True, "bool"), (False, "bool"), (["a"], "list"), ({"a": 1}, "dict")]
)
def test_custom_field_values_that_no_string_reads_back_as_are_refused(value, kind):
    with pytest.raises(VaultInputError, match="the value of Env is %s" % kind):
        custom_field_strings({"Env": value}, "custom_fields")


@pytest.mark.parametrize("label", ["Env ", " Env", "", "  "])
def test_custom_field_labels_the_vault_would_trim_are_refused(label):
    with pytest.raises(VaultInputError, match="custom_fields label"):
        custom_field_strings({label: "prod"}, "custom_fields")
