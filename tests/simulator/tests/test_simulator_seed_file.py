"""``--seed-file``: user groups, users and resources made before the vault starts, all or nothing."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from vault_simulator.core.records import AUDIT, RESOURCE, USER, USER_GROUP
from vault_simulator.seed_file import SeedFileError, load_seed_file

SIMULATOR_DIR = Path(__file__).resolve().parents[1]

FULL_SEED = """\
user_groups:
  - name: ops
    description: Operators
users:
  - name: deployer
    role: Password User
    token: DEPLOYER-TOKEN
    email: deployer@example.com
    groups: [ops]
  - name: auditor
    role: Password Auditor
resources:
  - name: web-01
    type: Linux
    description: The web server
    url: https://web-01.example.com
    department: Web
    location: Rack 4
    accounts:
      - name: root
        password: "root-Secret-1"
      - name: deploy
        password: "deploy-Secret-2"
        notes: used by CI
        shares:
          - user: deployer
            access: view
  - name: db-01
    type: Windows
    accounts:
      - name: Administrator
        password: "db-Secret-3"
    shares:
      - user_group: ops
        access: view
"""


def seed_file(tmp_path, text):
    path = tmp_path / "seed.yml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def seeded(make_vault, tmp_path, text, **settings):
    vault = make_vault(**settings)
    load_seed_file(seed_file(tmp_path, text)).apply_to(vault.simulator)
    return vault


def seed_error(make_vault, tmp_path, text, **settings):
    vault = make_vault(**settings)
    with pytest.raises(SeedFileError) as raised:
        load_seed_file(seed_file(tmp_path, text)).apply_to(vault.simulator)
    return vault, str(raised.value)


def password(vault, resource, account, token):
    resource_id, account_id = vault.ids(resource, account)
    return vault.call("GET", f"/resources/{resource_id}/accounts/{account_id}/password", token=token)[1]


def test_a_seed_file_makes_groups_users_resources_accounts_and_shares(make_vault, tmp_path):
    vault = seeded(make_vault, tmp_path, FULL_SEED)

    assert password(vault, "web-01", "deploy", vault.token)["operation"]["Details"]["PASSWORD"] == "deploy-Secret-2"
    assert password(vault, "db-01", "Administrator", vault.token)["operation"]["Details"]["PASSWORD"] == "db-Secret-3"
    # The user's fixed token works, and the shares give it exactly what they name.
    as_deployer = password(vault, "web-01", "deploy", "DEPLOYER-TOKEN")["operation"]
    assert as_deployer["Details"]["PASSWORD"] == "deploy-Secret-2"
    assert password(vault, "web-01", "root", "DEPLOYER-TOKEN")["operation"]["result"]["status"] == "Failed"
    by_group = password(vault, "db-01", "Administrator", "DEPLOYER-TOKEN")["operation"]
    assert by_group["Details"]["PASSWORD"] == "db-Secret-3"

    resource_id, _account_id = vault.ids("web-01", "root")
    details = vault.ok("GET", f"/resources/{resource_id}/accounts")["Details"]
    assert (details["RESOURCE DESCRIPTION"], details["DEPARTMENT"]) == ("The web server", "Web")
    assert details["RESOURCE URL"] == "https://web-01.example.com"
    users = {user["name"]: user for user in vault.store.all(USER)}
    assert (users["deployer"]["role"], users["auditor"]["role"]) == ("Password User", "Password Auditor")
    assert users["deployer"]["email"] == "deployer@example.com"
    (group,) = vault.store.all(USER_GROUP)
    assert (group["name"], group["member_ids"]) == ("ops", [users["deployer"]["id"]])


def test_seeding_is_not_a_request(make_vault, tmp_path):
    vault = seeded(make_vault, tmp_path, FULL_SEED)
    assert vault.requests() == []
    assert vault.store.all(AUDIT) == []


def test_an_empty_file_makes_nothing(make_vault, tmp_path):
    vault = seeded(make_vault, tmp_path, "")
    assert vault.store.all(RESOURCE) == []


@pytest.mark.parametrize(
    "text, expected",
    [
        ("resources:\n  - name: a\n    type: Linux\n    acounts: []\n", "line 4: resources[0]: unknown key 'acounts'"),
        (
            "resources:\n  - name: a\n    type: Linux\n    accounts:\n      - name: root\n",
            "line 5: resources[0].accounts[0]: 'password' is required",
        ),
        (
            "resources:\n  - name: a\n    type: Linux\n    accounts:\n      - name: root\n        password: 1234\n",
            "line 6: resources[0].accounts[0]: 'password' must be a non-empty string (quote numbers and dates)",
        ),
        ("resources:\n  - name: a\n    type: Linux\n    accounts: []\n", "line 4: resources[0]: a resource needs"),
        ("resource: []\n", "line 1: resource: unknown section (sections: user_groups, users, resources)"),
        ("users: {name: x}\n", "line 1: users: users must be a list"),
        ("users:\n  - just-a-name\n", "users[0]: must be a mapping"),
        ("- a\n", "must be a mapping with the keys user_groups, users, resources"),
        (
            "resources:\n  - name: a\n    type: Linux\n    accounts:\n      - {name: r, password: p}\n"
            "    shares:\n      - {user: x, user_group: y, access: view}\n",
            "line 7: resources[0].shares[0]: give exactly one of user or user_group",
        ),
    ],
)
def test_a_file_of_the_wrong_shape_is_refused_with_its_line_and_entry(make_vault, tmp_path, text, expected):
    _vault, message = seed_error(make_vault, tmp_path, text)
    assert message.startswith(f"seed file {tmp_path / 'seed.yml'}")
    assert expected in message


@pytest.mark.parametrize(
    "text, expected",
    [
        ("resources:\n  - {name: a, type: Nope, accounts: [{name: r, password: p}]}\n", "Resource type Nope does"),
        ("users:\n  - {name: u, role: Boss}\n", "line 2: users[0]: ROLE must be one of"),
        ("users:\n  - {name: u, groups: [nobody]}\n", "User group nobody does not exist"),
        ("users:\n  - {name: admin}\n", "User admin already exists"),
        (
            "resources:\n  - {name: a, type: Linux, accounts: [{name: r, password: p}, {name: r, password: q}]}\n",
            "resources[0].accounts[1]: Account r already exists in resource a",
        ),
        (
            "resources:\n  - name: a\n    type: Linux\n    accounts: [{name: r, password: p}]\n"
            "    shares: [{user: ghost, access: view}]\n",
            "line 5: resources[0].shares[0]: User ghost does not exist",
        ),
        (
            "users: [{name: u}]\nresources:\n  - name: a\n    type: Linux\n"
            "    accounts: [{name: r, password: p, shares: [{user: u, access: fullaccess}]}]\n",
            "resources[0].accounts[0].shares[0]: ACCESSTYPE",
        ),
    ],
)
def test_what_the_vault_refuses_is_refused_with_its_message(make_vault, tmp_path, text, expected):
    _vault, message = seed_error(make_vault, tmp_path, text)
    assert expected in message


def test_a_refused_entry_leaves_nothing_of_the_file(make_vault, tmp_path):
    text = FULL_SEED + "  - name: web-01\n    type: Linux\n    accounts: [{name: x, password: y}]\n"
    vault, message = seed_error(make_vault, tmp_path, text)
    assert "resources[2]: Resource web-01 already exists" in message
    assert vault.store.all(RESOURCE) == vault.store.all(USER_GROUP) == []
    assert [user["name"] for user in vault.store.all(USER)] == ["admin"]


def test_group_sharing_below_its_build_is_refused_as_unsupported(make_vault, tmp_path):
    text = "user_groups: [{name: g}]\nresources:\n  - name: a\n    type: Linux\n"
    text += "    accounts: [{name: r, password: p}]\n    shares: [{user_group: g, access: view}]\n"
    _vault, message = seed_error(make_vault, tmp_path, text, build=11000)
    assert "USERGROUPID is not supported by edition A build 11000" in message


def test_a_token_of_another_user_is_refused(make_vault, tmp_path):
    vault = make_vault(admin_token="ADMIN-TOKEN")
    path = seed_file(tmp_path, "users:\n  - name: u\n    token: ADMIN-TOKEN\n")
    with pytest.raises(SeedFileError, match="line 3: users\\[0\\]: this token belongs to another user"):
        load_seed_file(path).apply_to(vault.simulator)
    assert vault.simulator.admin_token == "ADMIN-TOKEN"
    assert vault.call("GET", "/resources", token="ADMIN-TOKEN")[0] == 200


def test_no_message_holds_a_secret_of_the_file(make_vault, tmp_path):
    # A resource named like a password: the vault's own message would name it.
    text = "resources:\n  - {name: a, type: Linux, accounts: [{name: r, password: Hunter2-Secret}]}\n"
    text += "  - {name: Hunter2-Secret, type: Linux, accounts: [{name: r, password: p}]}\n" * 2
    _vault, message = seed_error(make_vault, tmp_path, text)
    assert message.endswith("line 4: resources[2]: Resource ******** already exists")
    assert "Hunter2" not in message


def test_a_yaml_syntax_error_gives_its_position_without_the_line(make_vault, tmp_path):
    text = 'resources:\n  - name: a\n    accounts: [{name: r, password: "Sw0rd-Secret}]\n'
    _vault, message = seed_error(make_vault, tmp_path, text)
    assert "line 4" in message and "not valid YAML" in message
    assert "Sw0rd" not in message


@pytest.mark.parametrize(
    "value, secret",
    [
        ("!Tag-Secret-91x", "Tag-Secret-91x"),
        ("*Alias-Secret-92x", "Alias-Secret-92x"),
        ("!!python/name:os.Py-Secret-93x", "Py-Secret-93x"),
        ("!!python/object/apply:Obj-Secret-94x []", "Obj-Secret-94x"),
        ("&Anchor-Secret-95x *Alias-Secret-96x", "Secret-9"),
    ],
)
@pytest.mark.parametrize("key", ["password", "token"])
@pytest.mark.parametrize("flow", [False, True], ids=["block", "flow"])
def test_a_secret_the_yaml_parser_quotes_back_is_masked(make_vault, tmp_path, key, value, secret, flow):
    if key == "token":
        entry = "{name: u, token: %s}" % value if flow else "name: u\n    token: %s" % value
        text = "users:\n  - %s\n" % entry
    else:
        entry = "{name: r, password: %s}" % value if flow else "name: r\n        password: %s" % value
        text = "resources:\n  - name: a\n    type: Linux\n    accounts:\n      - %s\n" % entry
    _vault, message = seed_error(make_vault, tmp_path, text)
    assert "not valid YAML" in message and "line " in message
    assert secret not in message and "Secret" not in message


def test_every_error_masks_the_file_s_secrets_also_where_it_names_an_entry(make_vault, tmp_path):
    # A resource named like a password: its refusal (already exists) and its shape error both name it.
    text = "resources:\n  - {name: Hunter3-Secret, type: Linux, accounts: [{name: r, password: Hunter3-Secret}]}\n"
    _vault, message = seed_error(make_vault, tmp_path, text + "  - {name: b, type: Linux, accounts: []}\n")
    assert "a resource needs at least one account" in message
    _vault, message = seed_error(make_vault, tmp_path, text + text.split("\n", 1)[1])
    assert "Resource ******** already exists" in message and "Hunter3" not in message


def test_the_command_refuses_a_bad_seed_file_before_it_listens(tmp_path):
    path = seed_file(tmp_path, "resources:\n  - {name: a, type: Linux, accounts: [{name: r, password: Pa55-Secret}]}\n")
    path.write_text(path.read_text() + "  - {name: a, type: Linux, accounts: [{name: r, password: Other-Secret}]}\n")
    result = subprocess.run(
        [sys.executable, "-m", "vault_simulator", "--seed-file", str(path), "--tls-dir", str(tmp_path / "tls")],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=SIMULATOR_DIR,
        check=False,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"vault-simulator: error: seed file {path}, line 3: resources[1]: Resource a already exists\n"
    )
    assert not (tmp_path / "tls").exists()
