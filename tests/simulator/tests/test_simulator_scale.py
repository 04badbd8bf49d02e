"""The simulator at a real vault's size, in counts (make bench's "Simulator at scale" gives the seconds): a lookup
by name decodes the records of that name, not every record of its kind; a Password User's resource list reads their
shares once; seeding costs the same statements and decodes for each resource however many came before; a state file
is written ahead, and what a request committed survives the process being killed."""

import io
import json
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conformance.scenarios.certificates import PKI_ROOT, create_certificate, pki, self_signed
from vault_simulator.areas.certificates.records import certificate_group_by_name
from vault_simulator.areas.ssh_keys.records import key_by_name
from vault_simulator.areas.user_groups.records import user_group_by_name
from vault_simulator.core import store as store_module
from vault_simulator.core.finders import group_by_name, resource_by_name, user_by_name
from vault_simulator.core.groups import DYNAMIC, add_member, new_group
from vault_simulator.core.records import (
    ACCOUNT,
    CERTIFICATE,
    CERTIFICATE_GROUP,
    CSR,
    RESOURCE,
    RESOURCE_GROUP,
    SSH_KEY,
    USER,
    USER_GROUP,
)
from vault_simulator.core.shares import set_share
from vault_simulator.core.store import Store
from vault_simulator.seed_file import load_seed_file

OTHERS = 30
# An API user whose identity (PGP User ID) is "Alice <alice@example.com>".
ALICE = {"USERNAME": "alice", "ISAPIUSER": "true", "EMAIL": "alice@example.com", "FIRSTNAME": "Alice"}
DEFAULT_ORG = {"id": "1"}
SECOND_ORG = {"id": "2"}


class _CountingJson:
    """The store's ``json``, counting the records it decodes."""

    def __init__(self):
        self.decoded = 0

    def loads(self, text):
        self.decoded += 1
        return json.loads(text)

    dumps = staticmethod(json.dumps)


@pytest.fixture
def decodes(monkeypatch):
    counting = _CountingJson()
    monkeypatch.setattr(store_module, "json", counting)
    return counting


def decoded_by(decodes, action):
    before = decodes.decoded
    action()
    return decodes.decoded - before


def put_others(store, kind, **fields):
    """``OTHERS`` records of ``kind`` that no lookup of the tests asks for (ids from 1001)."""
    for number in range(1001, 1001 + OTHERS):
        record = {"id": str(number), "name": f"other-{number}", **fields}
        store.put(kind, record["id"], {key: value.format(number) for key, value in record.items()})


# Each finder by name: (kind, find(store, name)); the organization-scoped ones look in the default organization.
FINDERS = [
    pytest.param(RESOURCE, lambda store, name: resource_by_name(store, name, DEFAULT_ORG), id="resource"),
    pytest.param(RESOURCE_GROUP, lambda store, name: group_by_name(store, name, DEFAULT_ORG), id="resource-group"),
    pytest.param(USER, user_by_name, id="user"),
    pytest.param(USER_GROUP, user_group_by_name, id="user-group"),
    pytest.param(SSH_KEY, key_by_name, id="ssh-key"),
    pytest.param(CERTIFICATE_GROUP, certificate_group_by_name, id="certificate-group"),
]


@pytest.mark.parametrize("kind, find", FINDERS)
def test_a_lookup_by_name_decodes_only_that_name_and_minds_its_case(decodes, kind, find):
    store = Store()
    put_others(store, kind)
    store.put(kind, "7", {"id": "7", "name": "wanted"})

    found = []
    cost = decoded_by(decodes, lambda: found.append(find(store, "wanted")))

    assert found == [{"id": "7", "name": "wanted"}] and cost == 1
    assert find(store, "WANTED") is None and find(store, "other") is None


@pytest.mark.parametrize("kind, find", [FINDERS[0], FINDERS[1]])
def test_a_lookup_by_name_keeps_to_its_organization(decodes, kind, find):
    store = Store()
    store.put(kind, "1", {"id": "1", "name": "same", "org_id": SECOND_ORG["id"]})
    store.put(kind, "2", {"id": "2", "name": "same"})  # stored without org_id: the default organization's
    put_others(store, kind)

    assert decoded_by(decodes, lambda: find(store, "same")) == 2
    assert find(store, "same")["id"] == "2"
    store.delete(kind, "2")
    assert find(store, "same") is None


def test_get_resourceaccountid_decodes_as_much_in_a_larger_vault(vault, decodes):
    vault.create_resource("web-01")

    def lookup():
        vault.ids("web-01", "root")

    first = decoded_by(decodes, lookup)
    for number in range(OTHERS):
        vault.create_resource(f"other-{number:02d}")

    assert decoded_by(decodes, lookup) == first


def test_certificates_by_common_name_in_any_case_and_by_identity(vault, decodes):
    create_certificate(vault, "www.example.com")
    pem, dummy = self_signed("upload.example.com")

    def details():
        (item,) = pki(vault, "GET", "/getCertificateDetails", details={"common_name": "WWW.Example.COM"})["details"]
        assert item["issuedto"]["cname"] == "www.example.com"

    def add():
        return vault.call(
            "POST",
            "/addCertificate",
            root=PKI_ROOT,
            details={"fileType": "CERTFILE"},
            files={"File": (io.BytesIO(pem), "upload.pem")},
        )[1]["result"]

    def add_again():
        assert add()["Message"].endswith("is already in the vault")

    assert add()["Status"] == "Success"
    first = decoded_by(decodes, details), decoded_by(decodes, add_again)
    put_others(vault.store, CERTIFICATE, common_name="other-{}.example.com", identity="{}", owner_id="1")

    assert (decoded_by(decodes, details), decoded_by(decodes, add_again)) == first


def test_the_csr_list_of_a_common_name_decodes_that_name_only(vault, decodes):
    for common_name in ("www.example.com", "api.example.com"):
        pki(vault, "POST", "/createCSR", details={"CNAME": common_name, "LEN": "1024"})

    def listed():
        (item,) = pki(vault, "GET", "/getCSRList", details={"common_name": "WWW.example.com"})["details"]
        assert item["CSR_ID"] == 1

    first = decoded_by(decodes, listed)
    put_others(vault.store, CSR, common_name="other-{}.example.com", created_by="1")

    assert decoded_by(decodes, listed) == first


def test_a_pgp_key_by_identity_decodes_as_much_among_more_users(make_vault, decodes):
    vault = make_vault(edition="B", seed=3)
    vault.ok("POST", "/user", details=ALICE)

    def fetch():
        response = vault.send("GET", "/getPGPKey", root=PKI_ROOT, details={"User": "Alice <alice@example.com>"})
        assert response.mimetype == "application/pgp-keys", response.get_data()

    fetch()  # the first fetch makes the key
    first = decoded_by(decodes, fetch)
    put_others(vault.store, USER, email="other-{}@example.com", full_name="Other {}")

    assert decoded_by(decodes, fetch) == first


def test_a_pgp_key_goes_to_the_oldest_user_of_that_name_or_identity(make_vault):
    """The user whose identity is the text comes first when they are older than the user named so."""
    vault = make_vault(edition="B", seed=3)
    vault.ok("POST", "/user", details=ALICE)
    store = vault.store
    store.put(USER, "900", {"id": "900", "name": "Alice <alice@example.com>", "email": "", "role": "Password User"})

    response = vault.send("GET", "/getPGPKey", root=PKI_ROOT, details={"User": "Alice <alice@example.com>"})

    assert response.headers["Content-Disposition"] == 'attachment; filename="alice_public.asc"'


def test_a_password_user_s_resource_list_reads_their_shares_once(vault, decodes):
    """Every way to see a resource, and one that is not enough; a resource the user cannot see costs the list one
    decode, and the dynamic group's criteria one more."""
    token = vault.create_api_user("pu")
    store = vault.store
    user, admin = user_by_name(store, "pu"), user_by_name(store, "admin")
    names = ["shared", "by-account", "remote-app-only", "in-group", "dyn-01", "by-user-group", "not-shared"]
    ids = {name: vault.create_resource(name)[0] for name in names}  # one account each, its id the resource's
    vault.create_resource("owned", OWNERNAME="pu")
    set_share(store, (RESOURCE, ids["shared"]), (USER, user["id"]), "view")
    set_share(store, (ACCOUNT, ids["by-account"]), (USER, user["id"]), "view")
    set_share(store, (ACCOUNT, ids["remote-app-only"]), (USER, user["id"]), "remoteapponly")
    static = new_group(store, "static", admin, "1")
    add_member(store, static, store.get(RESOURCE, ids["in-group"]))
    criteria = {"andor": "and", "criteria": [{"condition": "RESOURCENAME", "operator": "STARTSWITH", "value": "dyn-"}]}
    dynamic = new_group(store, "dynamic", admin, "1", DYNAMIC, criteria=criteria)
    for group in (static, dynamic):
        set_share(store, (RESOURCE_GROUP, group["id"]), (USER, user["id"]), "view")
    user_group = {"id": "1", "name": "ops", "member_ids": [user["id"]]}
    store.put(USER_GROUP, "1", user_group)
    set_share(store, (RESOURCE, ids["by-user-group"]), (USER_GROUP, "1"), "modify")

    def listed():
        return [item["RESOURCE NAME"] for item in vault.ok("GET", "/resources", token=token)["Details"]]

    assert listed() == ["shared", "by-account", "in-group", "dyn-01", "by-user-group", "owned"]
    first = decoded_by(decodes, listed)
    for number in range(OTHERS):
        vault.create_resource(f"other-{number:02d}")

    assert decoded_by(decodes, listed) - first == 2 * OTHERS


def write_seed(tmp_path, size):
    path = tmp_path / f"seed-{size}.yml"
    lines = ["resources:"]
    for number in range(size):
        lines.append(
            f"  - {{name: scale-{number:04d}, type: Linux, accounts: [{{name: root, password: Pw-{number}}}]}}"
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def seeding_cost(make_vault, decodes, tmp_path, size):
    """``(statements, decodes)`` of applying a seed file of ``size`` resources with one account each."""
    vault = make_vault()
    seed = load_seed_file(write_seed(tmp_path, size))
    statements = []
    vault.store.trace(statements.append)
    cost = decoded_by(decodes, lambda: seed.apply_to(vault.simulator))
    vault.store.trace(None)
    assert vault.ids(f"scale-{size - 1:04d}", "root")
    return len(statements), cost


def test_seeding_costs_each_resource_the_same_statements_and_decodes(make_vault, decodes, tmp_path):
    small, medium, large = (seeding_cost(make_vault, decodes, tmp_path, size) for size in (10, 20, 40))

    for what in (0, 1):  # statements, decodes
        assert large[what] - medium[what] == 2 * (medium[what] - small[what]), (small, medium, large)


def test_a_state_file_is_written_ahead_without_a_sync_per_commit(monkeypatch, tmp_path):
    connections = []
    connect = sqlite3.connect

    def spy(*args, **kwargs):
        connections.append(connect(*args, **kwargs))
        return connections[-1]

    monkeypatch.setattr(store_module.sqlite3, "connect", spy)
    on_file, in_memory = Store(str(tmp_path / "state.sqlite")), Store()

    normal = 1
    assert connections[0].execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert connections[0].execute("PRAGMA synchronous").fetchone() == (normal,)
    assert connections[1].execute("PRAGMA journal_mode").fetchone() == ("memory",)
    on_file.close()
    in_memory.close()


def test_what_was_committed_survives_the_process_being_killed(tmp_path):
    state = tmp_path / "state.sqlite"
    program = textwrap.dedent(
        f"""
        import os
        from vault_simulator.core.store import Store

        store = Store({str(state)!r})
        with store.transaction():
            store.put("thing", "1", {{"name": "kept"}})
        os._exit(0)  # no close: as a kill leaves it
        """
    )
    subprocess.run([sys.executable, "-c", program], check=True, cwd=Path(store_module.__file__).parents[2])

    assert (tmp_path / "state.sqlite-wal").exists()
    assert Store(str(state)).get("thing", "1") == {"name": "kept"}
