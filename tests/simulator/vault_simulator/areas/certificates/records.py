"""Stored SSL certificates and who may see and manage them.

A certificate (kind ``ssl_certificate``) keeps its PEM, the PEM of the other
certificates of its chain, its private key (PKCS#8 PEM, or ``None`` when the
vault has only the certificate) with the key's passphrase, its keystore type,
its CA template, its owner (the user who created, added, discovered or had it
signed), where it is installed (``installations``: {host, port, ip}) and its
deployments. Certificates are vault-wide, like users: the spec shows no
``orgName`` on the PKI calls.

Selecting a certificate: ``common_name`` matches without regard to case;
``serial_number`` (hex, any case, colons allowed) selects among certificates
with the same common name. When several match and no serial_number is given
the call fails and names their serial numbers (getCertificateDetails instead
lists them all).

A server (kind ``ssl_server``, keyed by its host name in lower case) is a
host where SSL discovery found a certificate: the "stored servers"
deployCertificate deploys to.

Who sees a certificate: an Administrator or Privileged Administrator, its
owner, and users it is shared with, directly, through one of their user
groups, or through a certificate group that holds it (``certificate_share``).
Who manages it (delete, deploy, share): an Administrator or Privileged
Administrator, or its owner. A removed user or user group takes the
certificate shares given to it.
"""

from vault_simulator.areas.certificates.material import (
    certificate_from_pem,
    common_name,
    identity,
    key_to_pem,
    normalized_serial,
    serial_text,
    to_pem,
)
from vault_simulator.core.access import FULL_REACH_ROLES
from vault_simulator.core.groups import user_group_ids_of
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.records import CERTIFICATE, CERTIFICATE_GROUP, CERTIFICATE_SHARE, SSL_SERVER, USER, USER_GROUP
from vault_simulator.core.removals import delete_where, when_removed
from vault_simulator.core.replies import Failure
from vault_simulator.core.timefmt import now_iso

# The rows from "A 11300 / B 5300" (deploy, sharing, certificate groups).
CERTIFICATE_MANAGEMENT_BUILDS = {"A": 11300, "B": 5300}


def new_certificate(ctx, certificate, chain=(), key=None, passphrase="", **extra):
    """Store ``certificate`` (an ``x509.Certificate``), by default owned by the caller; return the record.

    ``extra``: ``store_type`` (PKCS12), ``template`` (the CA template that issued it),
    ``installation`` ({host, port, ip} where it was found), ``owner_id`` (another owner).
    """
    installation = extra.get("installation")
    record = {
        "id": ctx.store.next_id(CERTIFICATE),
        "common_name": common_name(certificate.subject) or serial_text(certificate),
        "serial": serial_text(certificate),
        "identity": identity(certificate),
        "pem": to_pem(certificate).decode(),
        "chain_pem": [to_pem(other).decode() for other in chain],
        "key_pem": key_to_pem(key).decode() if key is not None else None,
        "passphrase": passphrase if key is not None else "",
        "store_type": extra.get("store_type", "PKCS12"),
        "template": extra.get("template", ""),
        "owner_id": extra.get("owner_id", ctx.user["id"]),
        "installations": [installation] if installation else [],
        "deployments": {},
        "created": now_iso(),
    }
    ctx.store.put(CERTIFICATE, record["id"], record)
    return record


def certificate_with_identity(store, certificate):
    """The stored record of this very certificate (same DER), or ``None``."""
    wanted = identity(certificate)
    return next(iter(store.where(CERTIFICATE, identity=wanted)), None)


def x509_of(record):
    return certificate_from_pem(record["pem"])


def chain_of(record):
    return [certificate_from_pem(pem) for pem in record["chain_pem"]]


def selected_certificates(ctx):
    """Every certificate the caller can see that ``common_name`` and ``serial_number`` select."""
    name = required_text(ctx.details, "common_name")
    serial = text(ctx.details, "serial_number").strip()
    found = [
        c
        for c in ctx.store.where_ignoring_case(CERTIFICATE, common_name=name)
        if not serial or c["serial"] == normalized_serial(serial)
    ]
    if not found:
        raise Failure(f"Certificate {name}" + (f" with serial number {serial}" if serial else "") + " does not exist")
    ctx.audit["resource"] = name
    visible = [c for c in found if can_see(ctx.store, ctx.user, c)]
    if not visible:
        raise Failure(f"You are not authorized to access certificate {name}")
    return visible


def selected_certificate(ctx):
    """The one certificate ``common_name`` (and ``serial_number``) select."""
    matches = selected_certificates(ctx)
    if len(matches) > 1:
        serials = ", ".join(c["serial"] for c in matches)
        raise Failure(
            f"{len(matches)} certificates have the common name {matches[0]['common_name']}: "
            f"give serial_number to select one of {serials}"
        )
    return matches[0]


def describe(record):
    """``<common name> (serial number <serial>)`` for messages."""
    return f"{record['common_name']} (serial number {record['serial']})"


def visible_certificates(store, user):
    return [c for c in store.all(CERTIFICATE) if can_see(store, user, c)]


def can_see(store, user, record):
    if user["role"] in FULL_REACH_ROLES or record["owner_id"] == user["id"]:
        return True
    grantees = {(USER, user["id"])} | {(USER_GROUP, group_id) for group_id in user_group_ids_of(store, user)}
    targets = {(CERTIFICATE, record["id"])} | {
        (CERTIFICATE_GROUP, g["id"]) for g in store.all(CERTIFICATE_GROUP) if record["id"] in g["certificate_ids"]
    }
    return any(
        (s["target_kind"], s["target_id"]) in targets and (s["grantee_kind"], s["grantee_id"]) in grantees
        for s in store.all(CERTIFICATE_SHARE)
    )


def require_manager(ctx, record, action):
    """Fail with "You are not authorized to <action>" unless the caller may manage ``record``."""
    if ctx.user["role"] not in FULL_REACH_ROLES and record["owner_id"] != ctx.user["id"]:
        raise Failure(f"You are not authorized to {action}")


def require_private_key(record, purpose):
    if record["key_pem"] is None:
        raise Failure(f"The vault has no private key for certificate {describe(record)}: {purpose}")


@when_removed(USER)
def forget_user(store, user):
    _forget_grantee(store, USER, user)


@when_removed(USER_GROUP)
def forget_user_group(store, group):
    _forget_grantee(store, USER_GROUP, group)


def _forget_grantee(store, kind, record):
    delete_where(store, CERTIFICATE_SHARE, lambda s: (s["grantee_kind"], s["grantee_id"]) == (kind, record["id"]))


def delete_certificate_record(store, record):
    """Delete the certificate, its shares and its places in certificate groups."""
    for share in store.all(CERTIFICATE_SHARE):
        if (share["target_kind"], share["target_id"]) == (CERTIFICATE, record["id"]):
            store.delete(CERTIFICATE_SHARE, share["id"])
    for group in store.all(CERTIFICATE_GROUP):
        if record["id"] in group["certificate_ids"]:
            group["certificate_ids"].remove(record["id"])
            store.put(CERTIFICATE_GROUP, group["id"], group)
    store.delete(CERTIFICATE, record["id"])


def certificate_group_by_name(store, name):
    """The certificate group called ``name`` or ``None``."""
    return next(iter(store.where(CERTIFICATE_GROUP, name=name)), None)


def add_installation(record, installation):
    """Note that the certificate is installed at ``installation`` ({host, port, ip}), once."""
    known = {(i["host"].lower(), i["port"]) for i in record["installations"]}
    if (installation["host"].lower(), installation["port"]) not in known:
        record["installations"].append(installation)


def remember_server(store, host, port, ip):
    """Note ``host`` as a server deployCertificate can deploy to (at ``port``, reached at ``ip``)."""
    store.put(SSL_SERVER, host.lower(), {"id": host.lower(), "name": host, "port": port, "ip": ip})
