"""Sharing certificates and certificate groups with users and user groups, and revoking it.

A share (kind ``certificate_share``) gives a certificate, or every
certificate of a certificate group, to a user (``userId``) or to the
members of a user group (``userGroupId``): they then see it in
GetAllSSLCertificates and may read, download and get the passphrase of it.
Sharing again changes nothing; revoking what is not shared fails. A
certificate is shared by an Administrator, a Privileged Administrator or its
owner; a certificate group by an Administrator or Privileged Administrator.
"""

from vault_simulator.areas.certificates.records import (
    CERTIFICATE_MANAGEMENT_BUILDS,
    certificate_group_by_name,
    describe,
    require_manager,
    selected_certificate,
)
from vault_simulator.core.access import FULL_REACH_ROLES
from vault_simulator.core.finders import existing_user, existing_user_group
from vault_simulator.core.inputs import required_text
from vault_simulator.core.records import CERTIFICATE, CERTIFICATE_GROUP, CERTIFICATE_SHARE, USER, USER_GROUP
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.styles import PKI

SHARE, REVOKE = "ShareCertificate", "RevokeCertificate"


@endpoint("POST", "/shareCertificateToUser", op=SHARE, builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def share_certificate_with_user(ctx):
    """common_name, serial_number, userId."""
    return _share(ctx, _certificate(ctx, "share"), _user(ctx))


@endpoint("POST", "/shareCertificateToUserGroup", op=SHARE, builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def share_certificate_with_user_group(ctx):
    """common_name, serial_number, userGroupId."""
    return _share(ctx, _certificate(ctx, "share"), _user_group(ctx))


@endpoint("POST", "/shareCertificateGroupToUser", op=SHARE, builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def share_group_with_user(ctx):
    """certificate_group_name, userId."""
    return _share(ctx, _group(ctx, "share"), _user(ctx))


@endpoint("POST", "/shareCertificateGroupToUserGroup", op=SHARE, builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def share_group_with_user_group(ctx):
    """certificate_group_name, userGroupId."""
    return _share(ctx, _group(ctx, "share"), _user_group(ctx))


@endpoint("POST", "/revokeCertificateFromUser", op=REVOKE, builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def revoke_certificate_from_user(ctx):
    return _revoke(ctx, _certificate(ctx, "revoke"), _user(ctx))


@endpoint("POST", "/revokeCertificateFromUserGroup", op=REVOKE, builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def revoke_certificate_from_user_group(ctx):
    return _revoke(ctx, _certificate(ctx, "revoke"), _user_group(ctx))


@endpoint("POST", "/revokeCertificateGroupFromUser", op=REVOKE, builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def revoke_group_from_user(ctx):
    return _revoke(ctx, _group(ctx, "revoke"), _user(ctx))


@endpoint("POST", "/revokeCertificateGroupFromUserGroup", op=REVOKE, builds=CERTIFICATE_MANAGEMENT_BUILDS, style=PKI)
def revoke_group_from_user_group(ctx):
    return _revoke(ctx, _group(ctx, "revoke"), _user_group(ctx))


# A target or a grantee: (store kind, id, how messages name it).


def _certificate(ctx, action):
    record = selected_certificate(ctx)
    require_manager(ctx, record, f"{action} certificate {record['common_name']}")
    return CERTIFICATE, record["id"], f"Certificate {describe(record)}"


def _group(ctx, action):
    name = required_text(ctx.details, "certificate_group_name")
    if ctx.user["role"] not in FULL_REACH_ROLES:
        raise Failure(f"You are not authorized to {action} certificate group {name}")
    group = certificate_group_by_name(ctx.store, name)
    if group is None:
        raise Failure(f"Certificate group {name} does not exist")
    ctx.audit["resource"] = name
    return CERTIFICATE_GROUP, group["id"], f"Certificate group {name}"


def _user(ctx):
    user = existing_user(ctx.store, required_text(ctx.details, "userId"))
    ctx.audit["username"] = user["name"]
    return USER, user["id"], f"user {user['name']}"


def _user_group(ctx):
    group = existing_user_group(ctx.store, required_text(ctx.details, "userGroupId"))
    return USER_GROUP, group["id"], f"user group {group['name']}"


def _share_id(target, grantee):
    return f"{target[0]}:{target[1]}:{grantee[0]}:{grantee[1]}"


def _share(ctx, target, grantee):
    ctx.store.put(
        CERTIFICATE_SHARE,
        _share_id(target, grantee),
        {
            "id": _share_id(target, grantee),
            "target_kind": target[0],
            "target_id": target[1],
            "grantee_kind": grantee[0],
            "grantee_id": grantee[1],
        },
    )
    return success(f"{target[2]} shared with {grantee[2]} successfully")


def _revoke(ctx, target, grantee):
    if not ctx.store.delete(CERTIFICATE_SHARE, _share_id(target, grantee)):
        raise Failure(f"{target[2]} is not shared with {grantee[2]}")
    return success(f"{target[2]} revoked from {grantee[2]} successfully")
