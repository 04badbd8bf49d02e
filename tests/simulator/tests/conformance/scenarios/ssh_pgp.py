"""Scenarios of the rows under "SSH and PGP keys ({pki_root})"."""

import io

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from conformance.harness import scenario

PKI_ROOT = "/api/pki/restapi"
SSH_KEY = "SSH key (list item)"


def _pki(vault, method, path, **kwargs):
    return vault.exchange(method, path, root=PKI_ROOT, **kwargs)


def _create_key(vault, name="deploy", **details):
    exchange = _pki(
        vault, "POST", "/createsshkey", details={"keyName": name, "keyType": "ecdsa", "length": "256", **details}
    )
    assert exchange.body["result"]["status"] == "Success", exchange.body
    return exchange


def _associate(vault, key="deploy", resource="web01", user="root"):
    exchange = _pki(
        vault, "POST", "/associateKey", details={"keyName": key, "resourceName": resource, "userName": user}
    )
    assert exchange.body["result"]["status"] == "SUCCESS", exchange.body
    return exchange


@scenario("POST /createsshkey")
def create_ssh_key(vault):
    return _pki(
        vault,
        "POST",
        "/createsshkey",
        details={
            "keyName": "deploy",
            "passPhrase": "S3cret-phrase",
            "comment": "deploy@ci",
            "length": "2048",
            "keyType": "ssh-rsa",
        },
    )


@scenario("DELETE /deleteSSHKey")
def delete_ssh_key(vault):
    _create_key(vault)
    return _pki(vault, "DELETE", "/deleteSSHKey", details={"key_name": "deploy", "withoutDisassociation": "true"})


@scenario("GET /getAllSSHKeys")
def list_ssh_keys(vault):
    _create_key(vault)
    _create_key(vault, "backup", keyType="ed25519", length="", passPhrase="pw")
    exchange = _pki(vault, "GET", "/getAllSSHKeys")
    return exchange.expect(SSH_KEY, *exchange.details)


@scenario("GET /getSSHKey")
def get_ssh_key(vault):
    """GET in edition A, POST in edition B."""
    _create_key(vault)
    method = "GET" if vault.simulator.config.edition == "A" else "POST"
    exchange = _pki(vault, method, "/getSSHKey", details={"keyName": "deploy"})
    assert len(exchange.details) == 1
    return exchange.expect(SSH_KEY, *exchange.details)


@scenario("POST /exportSSHKey")
def export_ssh_key(vault):
    _create_key(vault, comment="deploy@ci")
    exchange = _pki(vault, "POST", "/exportSSHKey", details={"keyName": "deploy"})
    assert exchange.content.startswith(b"-----BEGIN EC PRIVATE KEY-----")
    return exchange


@scenario("GET /getSSHkeysforuser")
def keys_of_user(vault):
    vault.create_resource("web01")
    _create_key(vault)
    _associate(vault)
    exchange = _pki(vault, "GET", "/getSSHkeysforuser", details={"userName": "root", "resourceName": "web01"})
    assert exchange.details == "deploy"
    return exchange


@scenario("GET /getAllAssociatedUsers")
def associated_users(vault):
    vault.create_resource("web01")
    _create_key(vault)
    _associate(vault)
    exchange = _pki(vault, "GET", "/getAllAssociatedUsers")
    # "Listing associations yields items {UserName, ResourceName}" (no record table).
    assert exchange.details == [{"UserName": "root", "ResourceName": "web01"}]
    return exchange


@scenario("POST /addSSHKey")
def import_ssh_key(vault):
    key_file = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.BestAvailableEncryption(b"import-phrase"),
    )
    return _pki(
        vault,
        "POST",
        "/addSSHKey",
        details={"keyName": "imported", "passphrase": "import-phrase"},
        files={"File": (io.BytesIO(key_file), "id_ecdsa")},
    )


@scenario("POST /associateKey")
def associate_key(vault):
    vault.create_resource("web01")
    _create_key(vault)
    return _associate(vault)


@scenario("POST /dissociateKey")
def dissociate_key(vault):
    vault.create_resource("web01")
    _create_key(vault)
    _associate(vault)
    return _pki(
        vault, "POST", "/dissociateKey", details={"keyName": "deploy", "resourceName": "web01", "userName": "root"}
    )


@scenario("GET /getPGPKey")
def get_pgp_key(vault):
    vault.create_api_user("alice")
    exchange = _pki(vault, "GET", "/getPGPKey", details={"User": "alice", "keyExportType": "public"})
    assert exchange.content.startswith(b"-----BEGIN PGP PUBLIC KEY BLOCK-----")
    return exchange
