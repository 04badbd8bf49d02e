"""GET /getPGPKey (edition B from 6200): armored OpenPGP keys, read back packet by packet."""

import base64
import hashlib
import struct

import pytest
from conftest import PKI_ROOT
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from ssh_key_calls import pki_failed, unsupported

TAG_SIGNATURE, TAG_SECRET_KEY, TAG_PUBLIC_KEY, TAG_USER_ID = 2, 5, 6, 13
ALICE = "Alice Smith <alice@example.com>"


def fetch(vault, user, export_type=None, **kwargs):
    """The armored key file of a successful getPGPKey."""
    details = {"User": user} if export_type is None else {"User": user, "keyExportType": export_type}
    response = vault.send("GET", "/getPGPKey", root=PKI_ROOT, details=details, **kwargs)
    assert response.status_code == 200 and response.mimetype == "application/pgp-keys", response.get_data()
    return response.get_data().decode("ascii")


def crc24(data):
    crc = 0xB704CE
    for byte in data:
        crc ^= byte << 16
        for _bit in range(8):
            crc = (crc << 1) ^ (0x1864CFB if crc & 0x800000 else 0)
    return crc & 0xFFFFFF


def dearmor(text, kind):
    lines = text.strip().split("\n")
    assert lines[0] == f"-----BEGIN PGP {kind} KEY BLOCK-----" and lines[-1] == f"-----END PGP {kind} KEY BLOCK-----"
    assert lines[1] == "" and lines[-2].startswith("=")
    data = base64.b64decode("".join(lines[2:-2]))
    assert base64.b64decode(lines[-2][1:]) == crc24(data).to_bytes(3, "big")
    return data


def packets(data):
    """``[(tag, body)]`` of new-format packets."""
    found, offset = [], 0
    while offset < len(data):
        header = data[offset]
        assert header & 0xC0 == 0xC0, "new packet format"
        size, offset = read_length(data, offset + 1)
        found.append((header & 0x3F, data[offset : offset + size]))
        offset += size
    return found


def read_length(data, offset):
    first = data[offset]
    if first < 192:
        return first, offset + 1
    if first < 255:
        return ((first - 192) << 8) + data[offset + 1] + 192, offset + 2
    return struct.unpack(">I", data[offset + 1 : offset + 5])[0], offset + 5


def read_mpi(data, offset):
    bits = struct.unpack(">H", data[offset : offset + 2])[0]
    end = offset + 2 + (bits + 7) // 8
    value = int.from_bytes(data[offset + 2 : end], "big")
    assert value.bit_length() == bits
    return value, end


def public_part(body):
    """``(public key body, RSA public numbers, created)`` from a public or secret key packet body."""
    assert body[0] == 4 and body[5] == 1, "v4 RSA"
    n, offset = read_mpi(body, 6)
    e, offset = read_mpi(body, offset)
    return body[:offset], rsa.RSAPublicNumbers(e, n), struct.unpack(">I", body[1:5])[0]


def check_certification(public_body, numbers, user_id, signature):
    """Verify the self-signature over key and User ID (RFC 4880 5.2.4)."""
    assert signature[:4] == bytes([4, 0x13, 1, 8]), "v4 positive certification, RSA, SHA-256"
    hashed_size = struct.unpack(">H", signature[4:6])[0]
    hashed = signature[: 6 + hashed_size]
    unhashed_size = struct.unpack(">H", signature[6 + hashed_size : 8 + hashed_size])[0]
    offset = 8 + hashed_size + unhashed_size
    left16 = signature[offset : offset + 2]
    value, end = read_mpi(signature, offset + 2)
    assert end == len(signature)
    signed = (
        b"\x99"
        + struct.pack(">H", len(public_body))
        + public_body
        + b"\xb4"
        + struct.pack(">I", len(user_id))
        + user_id
        + hashed
        + b"\x04\xff"
        + struct.pack(">I", len(hashed))
    )
    assert hashlib.sha256(signed).digest()[:2] == left16
    numbers.public_key().verify(
        value.to_bytes((numbers.n.bit_length() + 7) // 8, "big"), signed, padding.PKCS1v15(), hashes.SHA256()
    )
    fingerprint = hashlib.sha1(b"\x99" + struct.pack(">H", len(public_body)) + public_body).digest()
    assert fingerprint in hashed and fingerprint[-8:] in signature[8 + hashed_size : offset]


def read_public_key(text):
    """``(RSA public numbers, user id, created)`` of an armored public key, its signature verified."""
    (tag, key), (uid_tag, user_id), (sig_tag, signature) = packets(dearmor(text, "PUBLIC"))
    assert (tag, uid_tag, sig_tag) == (TAG_PUBLIC_KEY, TAG_USER_ID, TAG_SIGNATURE)
    public_body, numbers, created = public_part(key)
    check_certification(public_body, numbers, user_id, signature)
    return numbers, user_id.decode(), created


def read_secret_key(text):
    """``(RSA public numbers, d, p, q)`` of an armored unprotected secret key, its checksum verified."""
    (tag, key), (uid_tag, user_id), (sig_tag, signature) = packets(dearmor(text, "PRIVATE"))
    assert (tag, uid_tag, sig_tag) == (TAG_SECRET_KEY, TAG_USER_ID, TAG_SIGNATURE)
    public_body, numbers, _created = public_part(key)
    check_certification(public_body, numbers, user_id, signature)
    assert key[len(public_body)] == 0, "string-to-key usage 0: not protected"
    start = len(public_body) + 1
    d, offset = read_mpi(key, start)
    p, offset = read_mpi(key, offset)
    q, offset = read_mpi(key, offset)
    u, offset = read_mpi(key, offset)
    assert struct.unpack(">H", key[offset : offset + 2])[0] == sum(key[start:offset]) % 65536
    assert offset + 2 == len(key)
    assert p < q and p * u % q == 1
    return numbers, d, p, q


@pytest.fixture
def vault_b(make_vault):
    vault = make_vault(edition="B")
    vault.ok(
        "POST",
        "/user",
        details={
            "USERNAME": "alice",
            "FULLNAME": "Alice Smith",
            "EMAIL": "alice@example.com",
            "ROLE": "Password User",
            "ISAPIUSER": "true",
        },
    )
    return vault


def test_public_key_is_a_signed_openpgp_key_of_the_user_identity(vault_b):
    numbers, user_id, _created = read_public_key(fetch(vault_b, r"Alice Smith \<alice@example.com\>", "public"))
    assert user_id == ALICE
    assert numbers.n.bit_length() == 2048 and numbers.e == 65537


def test_the_user_name_the_unescaped_identity_and_repeated_fetches_give_the_same_key(vault_b):
    first = fetch(vault_b, "alice")
    assert fetch(vault_b, ALICE) == first == fetch(vault_b, r"Alice\ Smith \<alice\@example.com\>", "public")


def test_private_key_matches_the_public_key(vault_b):
    public, _user_id, _created = read_public_key(fetch(vault_b, "alice"))
    numbers, d, p, q = read_secret_key(fetch(vault_b, "alice", "private"))
    assert numbers == public and p * q == public.n
    assert pow(pow(12345, public.e, public.n), d, public.n) == 12345


def test_a_user_without_email_is_known_by_user_name(vault_b):
    _numbers, user_id, _created = read_public_key(fetch(vault_b, "admin"))
    assert user_id == "admin"


def test_unknown_user_and_bad_input_fail_clearly(vault_b):
    pki_failed(vault_b, "GET", "/getPGPKey", "User bob does not exist", details={"User": "bob"})
    pki_failed(vault_b, "GET", "/getPGPKey", "User Alice Smith does not exist", details={"User": "Alice Smith"})
    pki_failed(vault_b, "GET", "/getPGPKey", "User is required", details={"keyExportType": "public"})
    pki_failed(
        vault_b,
        "GET",
        "/getPGPKey",
        "keyExportType must be public or private",
        details={"User": "alice", "keyExportType": "secret"},
    )
    pki_failed(
        vault_b,
        "GET",
        "/getPGPKey",
        "User ends with a lone backslash: escape a backslash as \\\\",
        details={"User": "alice\\"},
    )


def test_private_keys_go_to_their_user_and_administrators_only(vault_b):
    pat = vault_b.create_api_user("pat")
    read_public_key(fetch(vault_b, "alice", token=pat))
    pki_failed(
        vault_b,
        "GET",
        "/getPGPKey",
        "You are not authorized to export the private PGP key of alice",
        details={"User": "alice", "keyExportType": "private"},
        token=pat,
    )
    read_secret_key(fetch(vault_b, "pat", "private", token=pat))
    read_secret_key(fetch(vault_b, "alice", "private"))


def test_a_seed_reproduces_the_key(make_vault):
    def modulus(seed):
        vault = make_vault(edition="B", seed=seed)
        return read_public_key(fetch(vault, "admin"))[0].n

    assert modulus(4) == modulus(4) != modulus(5)


def test_get_pgp_key_exists_in_edition_b_from_6200_only(make_vault):
    unsupported(make_vault(edition="A"), "GET", "/getPGPKey", details={"User": "admin"})
    unsupported(make_vault(edition="B", build=6199), "GET", "/getPGPKey", details={"User": "admin"})
    read_public_key(fetch(make_vault(edition="B", build=6200), "admin"))
