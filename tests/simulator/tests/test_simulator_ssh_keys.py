"""SSH keys: createsshkey, addSSHKey, getAllSSHKeys, getSSHKey, exportSSHKey, deleteSSHKey."""

import base64
import struct

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import dsa, ec, ed25519, rsa
from ssh_key_calls import (
    UPPER_CASE_SUCCESS,
    create_key,
    export,
    import_key,
    listed,
    md5_fingerprint,
    pki,
    pki_failed,
    pki_ok,
    unsupported,
)

KEY_CLASSES = {
    "ssh-rsa": rsa.RSAPrivateKey,
    "ssh-dss": dsa.DSAPrivateKey,
    "ed25519": ed25519.Ed25519PrivateKey,
    "ecdsa": ec.EllipticCurvePrivateKey,
}
PUBLIC_PREFIXES = {"ssh-rsa": "ssh-rsa", "ssh-dss": "ssh-dss", "ed25519": "ssh-ed25519", "ecdsa": "ecdsa-sha2-nistp"}
NOT_AUTHORIZED = "You are not authorized to {}"


def load_private(content, passphrase=None):
    """A private key file the vault exported, read as OpenSSH or PEM."""
    password = passphrase.encode() if passphrase else None
    if content.startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----"):
        return serialization.load_ssh_private_key(content, password)
    return serialization.load_pem_private_key(content, password)


def openssh_public(private_key):
    return (
        private_key.public_key()
        .public_bytes(serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH)
        .decode()
    )


@pytest.mark.filterwarnings("ignore::cryptography.utils.CryptographyDeprecationWarning")
@pytest.mark.parametrize(
    "key_type, length, bits",
    [
        ("ssh-rsa", "1024", 1024),
        ("ssh-rsa", "2048", 2048),
        ("ssh-rsa", "4096", 4096),
        ("ssh-dss", "1024", 1024),
        ("ed25519", "", 256),
        ("ecdsa", "256", 256),
        ("ecdsa", "384", 384),
        ("ecdsa", "521", 521),
    ],
)
def test_every_type_and_length_of_the_spec_makes_a_real_key(make_vault, key_type, length, bits):
    vault = make_vault(edition="B")
    create_key(vault, "k", key_type, length, passPhrase="Pass phrase 1", comment="ops@ci")
    item = listed(vault)["k"]
    assert (item["KeyType"], item["KeyLength"], item["isPassphraseAvailable"]) == (key_type, str(bits), True)
    public_line = export(vault, "k", "public").decode()
    assert public_line.endswith(" ops@ci\n") and public_line.startswith(PUBLIC_PREFIXES[key_type])
    assert item["FingerPrint"] == md5_fingerprint(public_line)
    private_key = load_private(export(vault, "k", "private"), "Pass phrase 1")
    assert isinstance(private_key, KEY_CLASSES[key_type])
    assert openssh_public(private_key) == " ".join(public_line.split()[:2])


@pytest.mark.parametrize(
    "key_type, length, message",
    [
        ("ssh-rsa", "512", "length 512 is not supported for keyType ssh-rsa: use 1024, 2048, 4096"),
        ("ssh-rsa", "", "length (empty) is not supported for keyType ssh-rsa: use 1024, 2048, 4096"),
        ("ssh-dss", "2048", "length 2048 is not supported for keyType ssh-dss: use 1024"),
        ("ecdsa", "224", "length 224 is not supported for keyType ecdsa: use 256, 384, 521"),
        ("ed25519", "2048", "An ed25519 key has no separate length: leave length empty"),
        ("rsa", "2048", "keyType rsa is not supported: use one of ssh-rsa, ssh-dss, ed25519, ecdsa"),
    ],
)
def test_other_types_and_lengths_fail_clearly(vault, key_type, length, message):
    pki_failed(vault, "POST", "/createsshkey", message, details={"keyName": "k", "keyType": key_type, "length": length})
    assert listed(vault) == {}


def test_ed25519_accepts_its_256_bits_as_length(vault):
    create_key(vault, "k", "ed25519", "256")
    assert listed(vault)["k"]["KeyLength"] == "256"


def test_list_items_have_the_spec_fields_and_types(vault):
    create_key(vault, "first", "ssh-rsa", "1024")
    create_key(vault, "second", "ecdsa", 384, passPhrase="x")
    items = pki_ok(vault, "GET", "/getAllSSHKeys")["details"]
    assert [item["KeyName"] for item in items] == ["first", "second"]
    for item in items:
        assert set(item) == {
            "KeyName",
            "KeyType",
            "KeyLength",
            "FingerPrint",
            "CreatedBy",
            "CreationTime",
            "isPassphraseAvailable",
        }
        assert item["CreatedBy"] == "admin"
        assert len(item["CreationTime"]) == len("2024-01-31 12:00:00.000")
    assert [item["isPassphraseAvailable"] for item in items] == [False, True]
    assert items[1]["KeyLength"] == "384"


def test_key_names_are_unique(vault):
    create_key(vault, "deploy")
    pki_failed(
        vault,
        "POST",
        "/createsshkey",
        "SSH key deploy already exists",
        details={"keyName": "deploy", "keyType": "ed25519"},
    )


def test_key_name_and_type_are_required(vault):
    pki_failed(vault, "POST", "/createsshkey", "keyName is required", details={"keyType": "ed25519"})
    pki_failed(vault, "POST", "/createsshkey", "keyType is required", details={"keyName": "k"})
    pki_failed(
        vault,
        "POST",
        "/createsshkey",
        "comment must be a single line: it ends the public key line",
        details={"keyName": "k", "keyType": "ed25519", "comment": "one\nroot@evil"},
    )


def test_a_key_without_passphrase_exports_an_unencrypted_private_key(make_vault):
    vault = make_vault(edition="B")
    create_key(vault, "plain", "ssh-rsa", "1024")
    content = export(vault, "plain", "private")
    assert content.startswith(b"-----BEGIN RSA PRIVATE KEY-----") and b"ENCRYPTED" not in content
    assert isinstance(load_private(content), rsa.RSAPrivateKey)


def test_a_passphrase_encrypts_the_exported_private_key(make_vault):
    vault = make_vault(edition="B")
    create_key(vault, "locked", "ssh-rsa", "1024", passPhrase="right")
    content = export(vault, "locked", "private")
    assert b"Proc-Type: 4,ENCRYPTED" in content
    with pytest.raises(TypeError):
        load_private(content)
    with pytest.raises(ValueError):
        load_private(content, "wrong")
    assert isinstance(load_private(content, "right"), rsa.RSAPrivateKey)


def test_an_ed25519_key_is_an_openssh_file_with_its_comment(make_vault):
    vault = make_vault(edition="B")
    create_key(vault, "ed", "ed25519", "", comment="me@host")
    content = export(vault, "ed", "private")
    assert content.startswith(b"-----BEGIN OPENSSH PRIVATE KEY-----")
    blob = base64.b64decode(b"".join(content.splitlines()[1:-1]))
    assert blob.startswith(b"openssh-key-v1\0") and struct.pack(">I", 7) + b"me@host" in blob
    assert openssh_public(load_private(content)) + " me@host\n" == export(vault, "ed", "public").decode()


def test_an_encrypted_ed25519_key_is_an_encrypted_pkcs8_file(make_vault):
    vault = make_vault(edition="B")
    create_key(vault, "ed", "ed25519", "", passPhrase="pw")
    content = export(vault, "ed", "private")
    assert content.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    assert isinstance(load_private(content, "pw"), ed25519.Ed25519PrivateKey)


@pytest.mark.filterwarnings("ignore::cryptography.utils.CryptographyDeprecationWarning")
def test_a_seed_reproduces_keys_fingerprints_and_files(make_vault):
    def make_keys(seed):
        vault = make_vault(edition="B", seed=seed)
        for key_type, length in (("ssh-rsa", "1024"), ("ssh-dss", "1024"), ("ecdsa", "521"), ("ed25519", "")):
            create_key(vault, key_type, key_type, length, passPhrase="pw", comment="c")
        keys = listed(vault)
        return (
            {name: item["FingerPrint"] for name, item in keys.items()},
            {name: export(vault, name, "private") for name in keys},
        )

    first, again, other = make_keys(12), make_keys(12), make_keys(2)
    assert first == again
    assert set(first[0].values()).isdisjoint(other[0].values())


def test_a_seeded_dsa_key_has_proper_parameters(make_vault):
    vault = make_vault(edition="B", seed=2)
    create_key(vault, "dsa", "ssh-dss", "1024")
    key = load_private(export(vault, "dsa", "private"))
    parameters = key.private_numbers().public_numbers.parameter_numbers
    p, q, g = parameters.p, parameters.q, parameters.g
    assert (p.bit_length(), q.bit_length()) == (1024, 160)
    assert (p - 1) % q == 0 and 1 < g < p and pow(g, q, p) == 1


def test_get_ssh_key_is_get_in_edition_a(vault):
    create_key(vault, "deploy")
    body = pki_ok(vault, "GET", "/getSSHKey", details={"keyName": "deploy"})
    assert body["name"] == "GetSSHKey" and body["details"] == [listed(vault)["deploy"]]
    unsupported(vault, "POST", "/getSSHKey", details={"keyName": "deploy"})


def test_get_ssh_key_is_post_in_edition_b(make_vault):
    vault = make_vault(edition="B")
    create_key(vault, "deploy")
    assert pki_ok(vault, "POST", "/getSSHKey", details={"keyName": "deploy"})["details"][0]["KeyName"] == "deploy"
    unsupported(vault, "GET", "/getSSHKey", details={"keyName": "deploy"})


def test_unknown_key_fails(vault):
    pki_failed(vault, "GET", "/getSSHKey", "SSH key nope does not exist", details={"keyName": "nope"})
    pki_failed(vault, "POST", "/exportSSHKey", "SSH key nope does not exist", details={"keyName": "nope"})
    pki_failed(vault, "DELETE", "/deleteSSHKey", "SSH key nope does not exist", details={"key_name": "nope"})


def test_export_without_type_gives_the_private_key_in_both_editions(make_vault):
    for vault in (make_vault(edition="A"), make_vault(edition="B", build=6100), make_vault(edition="B")):
        create_key(vault, "deploy", "ecdsa", "256")
        assert export(vault, "deploy").startswith(b"-----BEGIN EC PRIVATE KEY-----")


def test_key_export_type_exists_only_from_b_6200(make_vault):
    for vault in (make_vault(edition="A"), make_vault(edition="B", build=6199)):
        create_key(vault, "deploy")
        unsupported(vault, "POST", "/exportSSHKey", details={"keyName": "deploy", "keyExportType": "public"})
    vault = make_vault(edition="B", build=6200)
    create_key(vault, "deploy", comment="x")
    assert export(vault, "deploy", "public").startswith(b"ecdsa-sha2-nistp256 ")
    pki_failed(
        vault,
        "POST",
        "/exportSSHKey",
        "keyExportType must be public or private",
        details={"keyName": "deploy", "keyExportType": "both"},
    )


def test_a_password_user_cannot_manage_ssh_keys(vault):
    token = vault.create_api_user("pat")
    create_key(vault, "deploy")
    for method, path, details, action in (
        ("POST", "/createsshkey", {"keyName": "k", "keyType": "ed25519"}, "create SSH keys"),
        ("GET", "/getAllSSHKeys", None, "view SSH keys"),
        ("GET", "/getSSHKey", {"keyName": "deploy"}, "view SSH keys"),
        ("POST", "/exportSSHKey", {"keyName": "deploy"}, "export SSH keys"),
        ("DELETE", "/deleteSSHKey", {"key_name": "deploy"}, "delete SSH keys"),
    ):
        pki_failed(vault, method, path, NOT_AUTHORIZED.format(action), details=details, token=token)
    result = import_key(vault, "mine", b"irrelevant", token=token)
    assert result == {"status": "Failed", "message": NOT_AUTHORIZED.format("import SSH keys")}
    assert list(listed(vault)) == ["deploy"]


def test_delete_removes_the_key(vault):
    create_key(vault, "deploy")
    create_key(vault, "other")
    body = pki_ok(vault, "DELETE", "/deleteSSHKey", details={"key_name": "deploy", "withoutDisassociation": "true"})
    assert body["result"]["message"] == "SSH key deploy deleted successfully"
    assert list(listed(vault)) == ["other"]
    pki_failed(vault, "DELETE", "/deleteSSHKey", "key_name is required", details={"keyName": "other"})


def pem_file(private_key, passphrase=None, private_format=serialization.PrivateFormat.TraditionalOpenSSL):
    encryption = (
        serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    )
    return private_key.private_bytes(serialization.Encoding.PEM, private_format, encryption)


def test_import_an_encrypted_pem_key(make_vault):
    vault = make_vault(edition="B")
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    content = pem_file(key, "open sesame")
    result = import_key(vault, "imported", content, "open sesame")
    assert result == {"status": UPPER_CASE_SUCCESS, "message": "SSH key imported imported successfully"}
    item = listed(vault)["imported"]
    assert (item["KeyType"], item["KeyLength"], item["isPassphraseAvailable"]) == ("ssh-rsa", "2048", True)
    assert item["FingerPrint"] == md5_fingerprint(openssh_public(key))
    assert export(vault, "imported", "private") == content
    assert export(vault, "imported", "public").decode() == openssh_public(key) + "\n"


def test_import_an_openssh_key_and_an_encrypted_pkcs8_key(vault):
    ed_key = ed25519.Ed25519PrivateKey.generate()
    openssh = ed_key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, serialization.NoEncryption()
    )
    assert import_key(vault, "openssh", openssh)["status"] == UPPER_CASE_SUCCESS
    ec_key = ec.generate_private_key(ec.SECP521R1())
    pkcs8 = pem_file(ec_key, "pw", serialization.PrivateFormat.PKCS8)
    assert import_key(vault, "pkcs8", pkcs8, "pw")["status"] == UPPER_CASE_SUCCESS
    keys = listed(vault)
    assert (keys["openssh"]["KeyType"], keys["openssh"]["isPassphraseAvailable"]) == ("ed25519", False)
    assert (keys["pkcs8"]["KeyType"], keys["pkcs8"]["KeyLength"]) == ("ecdsa", "521")
    assert keys["pkcs8"]["FingerPrint"] == md5_fingerprint(openssh_public(ec_key))


def test_a_passphrase_for_an_unencrypted_file_is_ignored(vault):
    content = pem_file(ec.generate_private_key(ec.SECP256R1()))
    assert import_key(vault, "plain", content, "unneeded")["status"] == UPPER_CASE_SUCCESS
    assert listed(vault)["plain"]["isPassphraseAvailable"] is False


@pytest.mark.parametrize(
    "content, passphrase, reason",
    [
        ("encrypted", "wrong", "the passphrase is incorrect"),
        ("encrypted", "", "the private key is encrypted: passphrase is required"),
        (b"not a key at all", "", "the file is not an OpenSSH or PEM private key"),
        (b"\xff\xfe binary", "", "the file is not an OpenSSH or PEM private key"),
        (
            b"-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n",
            "",
            "the file is not a valid PEM private key",
        ),
        (
            b"-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
            "",
            "the file is not a valid OpenSSH private key",
        ),
        ("secp224r1", "", "the key type is not one SSH uses (ssh-rsa, ssh-dss, ed25519, ecdsa)"),
    ],
)
def test_import_of_a_bad_file_fails_clearly(vault, content, passphrase, reason):
    if content == "encrypted":
        content = pem_file(ec.generate_private_key(ec.SECP256R1()), "right")
    elif content == "secp224r1":
        content = pem_file(ec.generate_private_key(ec.SECP224R1()))
    result = import_key(vault, "bad", content, passphrase)
    assert result == {"status": "Failed", "message": f"SSH key bad cannot be imported: {reason}"}
    assert listed(vault) == {}


def test_an_encrypted_openssh_file_is_refused_with_a_way_out(vault):
    """Reading it needs bcrypt_pbkdf, which the simulator does not have: the message says what to do."""
    public_blob = b"\0\0\0\x0bssh-ed25519\0\0\0\x20" + bytes(32)
    kdf_options = b"\0\0\0\x10" + bytes(16) + b"\0\0\0\x10"
    blob = (
        b"openssh-key-v1\0"
        + b"\0\0\0\x0aaes256-ctr"
        + b"\0\0\0\x06bcrypt"
        + struct.pack(">I", len(kdf_options))
        + kdf_options
        + b"\0\0\0\x01"
        + struct.pack(">I", len(public_blob))
        + public_blob
        + b"\0\0\0\x10"
        + bytes(16)
    )
    content = (
        b"-----BEGIN OPENSSH PRIVATE KEY-----\n" + base64.encodebytes(blob) + b"-----END OPENSSH PRIVATE KEY-----\n"
    )
    result = import_key(vault, "bad", content, "pw")
    assert result["status"] == "Failed"
    assert "encrypted OpenSSH-format private keys cannot be imported" in result["message"]
    assert "ssh-keygen -p -m PEM" in result["message"]


def test_import_needs_a_file_and_a_new_name(vault):
    create_key(vault, "taken")
    pki_failed(
        vault,
        "POST",
        "/addSSHKey",
        "File is required: the private key file to import",
        details={"keyName": "new", "passphrase": ""},
    )
    result = import_key(vault, "taken", pem_file(ec.generate_private_key(ec.SECP256R1())))
    assert result == {"status": "Failed", "message": "SSH key taken already exists"}


def test_ssh_key_operations_are_audited(vault):
    create_key(vault, "deploy")
    pki(vault, "POST", "/createsshkey", details={"keyName": "deploy", "keyType": "ed25519"})
    audit = [(record["operation"], record["status"]) for record in vault.store.all("audit")]
    assert audit[-2:] == [("CreateSSHKey", "Success"), ("CreateSSHKey", "Failed")]
