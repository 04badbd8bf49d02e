# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The SSL certificate, CSR and certificate group rows of the catalogue ("SSL certificates, CSRs and groups",
``{pki_root}``), one function each.

Every PKI row takes its input in INPUT_DATA ``Details`` (none has a path placeholder or a query parameter). A
certificate is selected by ``common_name`` and, where several share it, ``serial_number``: "In all inputs,
serial_number is optional and selects among certificates with the same common_name".
"""

from __future__ import annotations

from .._errors import VaultAPIError, VaultNotFoundError, is_refusal
from ._declare import declares


def _selected(common_name, serial_number=None):
    """The selector Details: ``common_name``, and ``serial_number`` when one is given."""
    selected = {"common_name": common_name}
    if serial_number:
        selected["serial_number"] = serial_number
    return selected


# --- certificates ------------------------------------------------------------------------------------------------


@declares("get_all_ssl_certificates")
def get_all_ssl_certificates(call, filters=None) -> list[dict]:
    """GetAllSSLCertificates: the listed certificates (Details items: ``Common Name``, ``serialNumber`` "present on
    some items", ``CertID``, ``ExpiryDate``, ...); ``filters`` holds the spec's optional ``withExpiryDaysLessThan``,
    ``withKeyLength``, ``withSignatureAlgorithm`` (no input at all without one)."""
    return call(details=filters or None).details_list()


@declares("get_all_ssl_certificates_expiry")
def get_all_ssl_certificates_expiry(call) -> list[dict]:
    """GetAllSSLCertificatesExpiryDate: every certificate with its ``ExpiryDate`` (Details items)."""
    return call().details_list()


@declares("get_certificate_details")
def get_certificate_details(call, common_name, serial_number=None) -> list[dict]:
    """GetCertificateDetails: the Details items (``endpoint`` {``serial``, ``from_date``, ``expiry_date``},
    ``issuedto`` {``cname``}, ``certificateTemplate``, ...) of the certificates ``common_name`` (and
    ``serial_number``) select.

    The vault answers a failed ``result`` for a certificate it does not have ("Certificate does not exist"), and the
    spec shows no code that tells it from another failure: any failure but a refusal of this token (``is_refusal``:
    "You are not authorized to access certificate ...") is ``VaultNotFoundError``, worded as the client words the
    failure and carrying the vault's words (``vault_message``). A refusal is raised as it is."""
    try:
        return call(details=_selected(common_name, serial_number)).details_list()
    except VaultAPIError as exc:
        if is_refusal(exc):
            raise
        raise VaultNotFoundError(
            str(exc), operation=exc.operation, http_status=exc.http_status, vault_message=exc.vault_message
        ) from None


@declares("get_certificate")
def get_certificate(call, common_name, serial_number=None, file_type=None) -> bytes | None:
    """getCertificate (the spec names no operation: the answer is the file): the bytes of the certificate file,
    ``fileType`` (B 6200: CER, CRT, DER, P7B, PKCS, JKS, PEM, KEY) when ``file_type`` is given."""
    details = _selected(common_name, serial_number)
    if file_type is not None:
        details["fileType"] = file_type
    return call(details=details).content


@declares("get_certificate_keystore")
def get_certificate_keystore(call, common_name, serial_number=None) -> bytes | None:
    """getCertificateKeyStore (the answer is the file): the bytes of the certificate's key store."""
    return call(details=_selected(common_name, serial_number)).content


@declares("get_certificate_passphrase")
def get_certificate_passphrase(call, common_name, serial_number=None) -> str | None:
    """GetCertificatePassphrase: the private key's passphrase, which the vault answers as the result ``message``."""
    return call(details=_selected(common_name, serial_number)).message


@declares("add_certificate")
def add_certificate(call, file_type, files, password=None) -> str | None:
    """AddCertificate: "multipart: INPUT_DATA {fileType (CERTFILE or KEYSTORE), PASSWORD (omitted for CERTFILE)}
    and File" (``files`` ``{name: bytes}``); the answer's message, which may name the serial number ("...
    (serial number abc) ...")."""
    details = {"fileType": file_type}
    if password is not None:
        details["PASSWORD"] = password
    return call(details=details, files=files).message


@declares("create_certificate")
def create_certificate(call, details) -> str | None:
    """CreateCertificate with the certificate input ``details`` (``_certificate_input``); the answer's message
    ("Certificate x (serial number abc) created")."""
    return call(details=details).message


@declares("delete_certificate")
def delete_certificate(call, common_name, serial_number) -> None:
    """DeleteCertificate: ``common_name`` and ``serial_number`` are both sent, as the list item gives them."""
    call(details={"common_name": common_name, "serial_number": serial_number})


@declares("deploy_certificate")
def deploy_certificate(call, common_name, serial_number=None, server_name=None):
    """DeployCertificate (A 11300 / B 5300): ``serverName`` only when ``server_name`` is given ("without it the
    certificate is deployed to all stored servers"). The ``VaultResponse``: its ``deployStatus`` (read with
    ``get``), ``message`` and ``operation``."""
    details = _selected(common_name, serial_number)
    if server_name is not None:
        details["serverName"] = server_name
    return call(details=details)


# --- SSL discovery -----------------------------------------------------------------------------------------------


@declares("discover_ssl_single")
def discover_ssl_single(call, details):
    """sslCertSingleDiscovery (answered ``Get SSL Discovery``) with ``details`` {``HOST``, ``PORT``, ``TIMEOUT``}:
    the ``VaultResponse``, whose ``details`` maps each host to ``[outcome, text]``."""
    return call(details=details)


@declares("discover_ssl_range")
def discover_ssl_range(call, details):
    """sslCertRangeDiscovery (answered ``Get SSL Discovery``) with ``details`` {``StartIpAddress``,
    ``EndIpAddress``, ``PORT``, ``TIMEOUT``}: the ``VaultResponse``, as ``discover_ssl_single``'s."""
    return call(details=details)


# --- CSRs --------------------------------------------------------------------------------------------------------


@declares("get_csr_list")
def get_csr_list(call, common_name=None) -> list[dict]:
    """GetCSRList: the CSRs (Details items: ``CSR_ID``, ``DOMAIN_NAME``, ``KEY_STRENGTH``, ...), ``common_name``
    sent only when given (no input at all without it)."""
    return call(details={"common_name": common_name} if common_name else None).details_list()


@declares("create_csr")
def create_csr(call, details) -> list[dict]:
    """CreateCSR (edition B answers ``CreateCertificate``) with the certificate input ``details`` and ``CNAME``:
    the Details items, "details list with CSR_ID"."""
    return call(details=details).details_list()


@declares("sign_csr")
def sign_csr(call, server_name, ca_name, template_name, csr_id) -> None:
    """SignCSR: ``serverName``, ``caName``, ``templateName`` and ``CSR_ID`` (sent as a string); it answers only a
    message."""
    call(details={"serverName": server_name, "caName": ca_name, "templateName": template_name, "CSR_ID": str(csr_id)})


# --- shares (A 11300 / B 5300) -----------------------------------------------------------------------------------


def _certificate_grant(call, certificate, field, grantee_id):
    return call(details=dict(certificate, **{field: grantee_id})).message


def _group_grant(call, group_name, field, grantee_id):
    return call(details={"certificate_group_name": group_name, field: grantee_id}).message


@declares("share_certificate_with_user")
def share_certificate_with_user(call, certificate, user_id) -> str | None:
    """ShareCertificate (/shareCertificateToUser): the certificate ``certificate`` selects (``common_name``,
    ``serial_number``) with the user ``userId``; the answer's message."""
    return _certificate_grant(call, certificate, "userId", user_id)


@declares("share_certificate_with_group")
def share_certificate_with_group(call, certificate, user_group_id) -> str | None:
    """ShareCertificate (/shareCertificateToUserGroup): as ``share_certificate_with_user``, with ``userGroupId``."""
    return _certificate_grant(call, certificate, "userGroupId", user_group_id)


@declares("share_certificate_group_with_user")
def share_certificate_group_with_user(call, group_name, user_id) -> str | None:
    """ShareCertificate (/shareCertificateGroupToUser): ``certificate_group_name`` with ``userId``; the answer's
    message."""
    return _group_grant(call, group_name, "userId", user_id)


@declares("share_certificate_group_with_group")
def share_certificate_group_with_group(call, group_name, user_group_id) -> str | None:
    """ShareCertificate (/shareCertificateGroupToUserGroup): ``certificate_group_name`` with ``userGroupId``."""
    return _group_grant(call, group_name, "userGroupId", user_group_id)


@declares("revoke_certificate_from_user")
def revoke_certificate_from_user(call, certificate, user_id) -> str | None:
    """RevokeCertificate (/revokeCertificateFromUser): the input of ``share_certificate_with_user``."""
    return _certificate_grant(call, certificate, "userId", user_id)


@declares("revoke_certificate_from_group")
def revoke_certificate_from_group(call, certificate, user_group_id) -> str | None:
    """RevokeCertificate (/revokeCertificateFromUserGroup): the input of ``share_certificate_with_group``."""
    return _certificate_grant(call, certificate, "userGroupId", user_group_id)


@declares("revoke_certificate_group_from_user")
def revoke_certificate_group_from_user(call, group_name, user_id) -> str | None:
    """RevokeCertificate (/revokeCertificateGroupFromUser): the input of ``share_certificate_group_with_user``."""
    return _group_grant(call, group_name, "userId", user_id)


@declares("revoke_certificate_group_from_group")
def revoke_certificate_group_from_group(call, group_name, user_group_id) -> str | None:
    """RevokeCertificate (/revokeCertificateGroupFromUserGroup): the input of
    ``share_certificate_group_with_group``."""
    return _group_grant(call, group_name, "userGroupId", user_group_id)


# --- certificate groups (A 11300 / B 5300) -----------------------------------------------------------------------


@declares("create_certificate_group")
def create_certificate_group(call, group_name, fields) -> list[dict]:
    """createCertificateGroup: ``group_name`` with ``fields`` (``group_description``, ``group_mail``,
    ``ssl_details`` "string of comma-separated certificate ids"); the Details items (the group answered)."""
    return call(details=dict(fields, group_name=group_name)).details_list()


@declares("edit_certificate_group")
def edit_certificate_group(call, group_name, fields, old_group_name=None) -> list[dict]:
    """editCertificateGroup: "same fields as create (group_name carries the new name)"; the spec shows no field
    naming the group to rename, so a rename sends the current name in ``old_group_name`` (what the collection's
    simulator reads). The Details items (the group answered)."""
    details = dict(fields, group_name=group_name)
    if old_group_name is not None:
        details["old_group_name"] = old_group_name
    return call(details=details).details_list()


@declares("delete_certificate_group")
def delete_certificate_group(call, group_name) -> None:
    """deleteCertificateGroup: ``group_name``."""
    call(details={"group_name": group_name})
