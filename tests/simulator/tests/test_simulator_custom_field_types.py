"""POST /__simulator/custom-fields: additional fields of a type other than Character, as a vault's
administrator defines them, and how GET RESOURCE ACCOUNTLIST and GET RESOURCE ACCOUNT DETAILS show them."""

import pytest

BASE = {"RESOURCENAME": "web01", "ACCOUNTNAME": "root", "RESOURCETYPE": "Linux", "PASSWORD": "pw", "OWNERNAME": "admin"}


def define(vault, document, token=None):
    return vault.client.post("/__simulator/custom-fields", json=document, headers={"AUTHTOKEN": token or vault.token})


def resource_fields(vault, resource_id="1"):
    fields = vault.ok("GET", f"/resources/{resource_id}/accounts")["Details"]["CUSTOM FIELD"]
    return {field["CUSTOMFIELDLABEL"]: field for field in fields}


def test_a_password_field_defined_first_is_shown_with_its_type_and_column(vault):
    assert define(vault, {"label": "Wi-Fi PSK", "type": "Password"}).status_code == 201
    fields = [{"CUSTOMLABEL": "Wi-Fi PSK", "CUSTOMVALUE": "psk-1"}, {"CUSTOMLABEL": "Rack", "CUSTOMVALUE": "U4"}]
    vault.ok("POST", "/resources", details={**BASE, "RESOURCECUSTOMFIELD": fields})
    shown = resource_fields(vault)
    assert shown["Wi-Fi PSK"] == {
        "CUSTOMFIELDVALUE": "psk-1",
        "CUSTOMFIELDTYPE": "Password",
        "CUSTOMFIELDLABEL": "Wi-Fi PSK",
        "CUSTOMFIELDCOLUMNNAME": "COLUMN_SCHAR1",
    }
    assert shown["Rack"]["CUSTOMFIELDTYPE"] == "Character"
    assert shown["Rack"]["CUSTOMFIELDCOLUMNNAME"] == "COLUMN_CHAR1"


def test_an_edit_keeps_the_type(vault):
    define(vault, {"label": "Kennwort", "type": "Password"})
    vault.ok("POST", "/resources", details=BASE)
    vault.ok("PUT", "/resources/1", details={"RESOURCECUSTOMFIELD": [{"CUSTOMLABEL": "Kennwort", "CUSTOMVALUE": "k"}]})
    assert resource_fields(vault)["Kennwort"]["CUSTOMFIELDTYPE"] == "Password"


def test_an_account_level_field_is_apart_from_a_resource_level_one(vault):
    assert define(vault, {"level": "account", "label": "PIN", "type": "Password"}).status_code == 201
    fields = [{"CUSTOMLABEL": "PIN", "CUSTOMVALUE": "1234"}]
    vault.ok("POST", "/resources", details={**BASE, "RESOURCECUSTOMFIELD": fields, "ACCOUNTCUSTOMFIELD": fields})
    assert resource_fields(vault)["PIN"]["CUSTOMFIELDTYPE"] == "Character"
    account = vault.ok("GET", "/resources/1/accounts/1")["Details"]["CUSTOM FIELD"]
    assert [(field["CUSTOMFIELDLABEL"], field["CUSTOMFIELDTYPE"]) for field in account] == [("PIN", "Password")]


def test_columns_are_numbered_per_family(vault):
    kinds = {"A": "Password", "B": "Numeric", "C": "Password", "D": "Date"}
    columns = {
        label: define(vault, {"label": label, "type": kind}).get_json()["column"] for label, kind in kinds.items()
    }
    assert columns == {"A": "COLUMN_SCHAR1", "B": "COLUMN_LONG1", "C": "COLUMN_SCHAR2", "D": "COLUMN_DATE1"}


def test_defining_again_with_the_same_type_is_ok_with_another_a_conflict(vault):
    assert define(vault, {"label": "Passwort", "type": "Password"}).status_code == 201
    assert define(vault, {"label": "Passwort", "type": "Password"}).status_code == 200
    conflict = define(vault, {"label": "Passwort", "type": "Character"})
    assert conflict.status_code == 409
    assert conflict.get_json() == {"error": "Passwort is already a Password field at RESOURCE level"}


def test_a_label_first_seen_in_a_value_stays_character(vault):
    fields = [{"CUSTOMLABEL": "Mot de passe", "CUSTOMVALUE": "x"}]
    vault.ok("POST", "/resources", details={**BASE, "RESOURCECUSTOMFIELD": fields})
    assert define(vault, {"label": "Mot de passe", "type": "Password"}).status_code == 409
    assert resource_fields(vault)["Mot de passe"]["CUSTOMFIELDTYPE"] == "Character"


@pytest.mark.parametrize(
    "document, error",
    [
        ({"label": "X", "type": "Secret"}, "type must be one of Character, Password, Numeric, Date"),
        ({"label": " ", "type": "Password"}, "missing label"),
        ({"level": "GROUP", "label": "X", "type": "Password"}, "level must be RESOURCE or ACCOUNT"),
    ],
)
def test_bad_definitions_are_refused(vault, document, error):
    response = define(vault, document)
    assert response.status_code == 400
    assert response.get_json() == {"error": error}


def test_only_the_admin_token_may_define(vault):
    token = vault.create_api_user("reader")
    assert define(vault, {"label": "X", "type": "Password"}, token=token).status_code == 401
