"""Remote apps (edition B): the admin endpoint that adds them, and the apps associated with a resource."""

import pytest

from conformance.scenarios.users_sharing import add_remote_app, user_id


@pytest.fixture
def vault_b(make_vault):
    return make_vault(edition="B")


def apps_of(vault, resource_id, token=None):
    kwargs = {"token": token} if token else {}
    operation = vault.ok("GET", f"/resources/{resource_id}/associated-remote-apps", **kwargs)
    assert operation["name"] == "GET_REMOTEAPPS_ASSOCIATED_WITH_RESOURCE"
    assert operation["totalRows"] == len(operation["Details"])
    return operation["Details"]


def test_lists_the_apps_of_that_resource_only(vault_b):
    web, _account_id = vault_b.create_resource("web01")
    db, _account_id = vault_b.create_resource("db01")
    empty, _account_id = vault_b.create_resource("empty01")
    putty = add_remote_app(vault_b, "PuTTY", [web, db])
    ssms = add_remote_app(vault_b, "SSMS", [db])
    assert apps_of(vault_b, web) == [{"name": "PuTTY", "id": putty}]
    assert apps_of(vault_b, db) == [{"name": "PuTTY", "id": putty}, {"name": "SSMS", "id": ssms}]
    assert apps_of(vault_b, empty) == []


def test_unknown_resource(vault_b):
    vault_b.failed("GET", "/resources/42/associated-remote-apps", "Resource with ID 42 does not exist")


def test_only_those_who_can_view_the_resource_list_its_apps(vault_b):
    web, _account_id = vault_b.create_resource("web01")
    add_remote_app(vault_b, "PuTTY", [web])
    pat = vault_b.create_api_user("pat")
    vault_b.failed(
        "GET", f"/resources/{web}/associated-remote-apps", "You are not authorized to view resource web01", token=pat
    )
    vault_b.ok("PUT", f"/resources/{web}/share", details={"ACCESSTYPE": "view", "USERID": user_id(vault_b, "pat")})
    assert [app["name"] for app in apps_of(vault_b, web, token=pat)] == ["PuTTY"]


@pytest.mark.parametrize(
    "document, error",
    [
        ({"resourceIds": ["1"]}, 'expected {"name": "<name>", "resourceIds": ["<id>", ...]}'),
        ({"name": "PuTTY", "resourceIds": "1"}, 'expected {"name": "<name>", "resourceIds": ["<id>", ...]}'),
        ({"name": " ", "resourceIds": ["1"]}, "a remote app needs a name"),
        ({"name": "PuTTY", "resourceIds": ["1", "7"]}, "no resource with ID 7"),
    ],
)
def test_admin_endpoint_refuses_bad_documents(vault_b, document, error):
    vault_b.create_resource("web01")
    response = vault_b.client.post("/__simulator/remote-apps", json=document, headers={"AUTHTOKEN": vault_b.token})
    assert (response.status_code, response.get_json()) == (400, {"error": error})
    assert vault_b.store.all("remote_app") == []


def test_admin_endpoint_needs_the_admin_token(vault_b):
    token = vault_b.create_api_user("boss", role="Administrator")
    response = vault_b.client.post("/__simulator/remote-apps", json={"name": "PuTTY"}, headers={"AUTHTOKEN": token})
    assert response.status_code == 401


@pytest.mark.parametrize("edition, build", [("A", 12450), ("B", 6310)])
def test_listing_is_edition_b_6320(make_vault, edition, build):
    vault = make_vault(edition=edition, build=build)
    resource_id, _account_id = vault.create_resource("web01")
    status, body = vault.call("GET", f"/resources/{resource_id}/associated-remote-apps")
    assert (status, body["operation"]["name"]) == (404, "UNSUPPORTED")
