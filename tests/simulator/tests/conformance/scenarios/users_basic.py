"""Scenarios of the user rows served since the foundation."""

from conformance.harness import scenario


@scenario("POST /user")
def create_user(vault):
    return vault.exchange(
        "POST",
        "/user",
        details={
            "USERNAME": "alice",
            "FIRSTNAME": "Alice",
            "LASTNAME": "Smith",
            "PASSWORD": "Pa55-word!",
            "ROLE": "Password User",
        },
    )


@scenario("POST /user (with ISAPIUSER true)")
def create_api_user(vault):
    return vault.exchange(
        "POST", "/user", details={"USERNAME": "deployer", "ROLE": "Password User", "ISAPIUSER": "true"}
    )


@scenario("GET /user/getUserId")
def user_id_of_name(vault):
    vault.create_api_user("deployer")
    return vault.exchange("GET", "/user/getUserId", query={"USERNAME": "deployer"})
