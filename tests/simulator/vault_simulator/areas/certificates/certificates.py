"""SSL certificates: create, add, list, details, delete."""

import datetime

from vault_simulator.areas.certificates.creation_input import made_up_passphrase, read_certificate_input
from vault_simulator.areas.certificates.material import (
    issue,
    key_length,
    load_certificates,
    load_pkcs12,
    new_private_key,
    random_serial,
    signature_algorithm,
    utc_now,
)
from vault_simulator.areas.certificates.records import (
    certificate_with_identity,
    delete_certificate_record,
    describe,
    new_certificate,
    require_manager,
    selected_certificate,
    selected_certificates,
    visible_certificates,
    x509_of,
)
from vault_simulator.areas.certificates.views import certificate_detail_items, certificate_list_item, expiry_item
from vault_simulator.core.inputs import text
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.styles import PKI, PKI_CAPITALIZED_RESULT

CERTFILE, KEYSTORE = "CERTFILE", "KEYSTORE"
_JKS_MAGIC = b"\xfe\xed\xfe\xed"


@endpoint("POST", "/createCertificate", op="CreateCertificate", builds=ANY_BUILD, style=PKI)
def create_certificate(ctx):
    """A new key pair and a SELF-SIGNED certificate for it (see ``creation_input`` for the
    fields); the simulator's CA signs only CSRs (signCSR). The message names the serial number,
    which tells apart certificates with the same common name."""
    request = read_certificate_input(ctx.details)
    key = new_private_key(ctx.rng, request.algorithm, request.length, ctx.config.seed is not None)
    now = utc_now()
    certificate = issue(
        request.subject,
        key.public_key(),
        request.subject,
        key,
        {
            "serial": random_serial(ctx.rng),
            "not_before": now,
            "not_after": now + request.validity,
            "hash_name": request.hash_name,
            "alt_names": request.alt_names,
        },
    )
    record = new_certificate(
        ctx, certificate, key=key, passphrase=request.passphrase(ctx.rng), store_type=request.store_type
    )
    ctx.audit["resource"] = record["common_name"]
    return success(f"Certificate {describe(record)} created successfully")


@endpoint("POST", "/addCertificate", op="AddCertificate", builds=ANY_BUILD, style=PKI_CAPITALIZED_RESULT)
def add_certificate(ctx):
    """Multipart: INPUT_DATA {fileType, PASSWORD} and the part ``File``.

    ``CERTFILE``: a PEM file (leaf first, then its chain) or a DER certificate.
    ``KEYSTORE``: a PKCS#12 keystore opened with PASSWORD (a JKS keystore is refused
    with a clear message); its private key is kept, PASSWORD becoming the key's
    passphrase (one is made up for a keystore without a password). A certificate
    already in the vault is refused.
    """
    file_type = text(ctx.details, "fileType").strip().upper()
    if file_type not in (CERTFILE, KEYSTORE):
        raise Failure(f"fileType must be {CERTFILE} or {KEYSTORE}")
    upload = ctx.files.get("File")
    if upload is None:
        raise Failure("File is required: send the certificate file or keystore as the multipart part File")
    data = upload.read()
    key, passphrase = None, ""
    if file_type == CERTFILE:
        try:
            certificate, *chain = load_certificates(data)
        except ValueError:
            raise Failure(f"{upload.filename} is not a PEM or DER certificate file") from None
    else:
        if data.startswith(_JKS_MAGIC):
            raise Failure(f"{upload.filename} is a JKS keystore: only PKCS#12 keystores can be added")
        password = text(ctx.details, "PASSWORD")
        try:
            key, certificate, chain = load_pkcs12(data, password)
        except ValueError:
            raise Failure(
                f"{upload.filename} could not be opened: not a PKCS#12 keystore, or PASSWORD is wrong"
            ) from None
        passphrase = password
    existing = certificate_with_identity(ctx.store, certificate)
    if existing is not None:
        raise Failure(f"Certificate {describe(existing)} is already in the vault")
    if key is not None and not passphrase:
        passphrase = made_up_passphrase(ctx.rng)
    record = new_certificate(ctx, certificate, chain, key, passphrase)
    ctx.audit["resource"] = record["common_name"]
    return success(f"Certificate {describe(record)} added successfully")


@endpoint("GET", "/getAllSSLCertificates", op="GetAllSSLCertificates", builds=ANY_BUILD, style=PKI)
def list_certificates(ctx):
    """The certificates the caller can see, narrowed by any of the optional filters:
    ``withExpiryDaysLessThan`` (expiring within fewer than that many days from now, expired ones
    included), ``withKeyLength`` (bits), ``withSignatureAlgorithm`` (``SHA256withRSA``, or just
    its hash ``SHA256``; any case)."""
    records = visible_certificates(ctx.store, ctx.user)
    days = _number_filter(ctx, "withExpiryDaysLessThan")
    if days is not None:
        limit = utc_now() + datetime.timedelta(days=days)
        records = [r for r in records if x509_of(r).not_valid_after_utc < limit]
    bits = _number_filter(ctx, "withKeyLength")
    if bits is not None:
        records = [r for r in records if key_length(x509_of(r).public_key()) == bits]
    algorithm = text(ctx.details, "withSignatureAlgorithm").strip().lower()
    if algorithm:
        records = [r for r in records if algorithm in _algorithm_names(r)]
    items = [certificate_list_item(r) for r in records]
    return success("SSL certificates fetched successfully", items, totalRows=len(items))


@endpoint("GET", "/getAllSSLCertsExpiryDate", op="GetAllSSLCertificatesExpiryDate", builds=ANY_BUILD, style=PKI)
def list_expiry_dates(ctx):
    """``Common Name`` and ``ExpiryDate`` of each certificate the caller can see; ``serialNumber`` in edition A."""
    items = [expiry_item(r, ctx.config.edition) for r in visible_certificates(ctx.store, ctx.user)]
    return success("SSL certificate expiry dates fetched successfully", items, totalRows=len(items))


@endpoint("GET", "/getCertificateDetails", op="GetCertificateDetails", builds=ANY_BUILD, style=PKI)
def certificate_details(ctx):
    """Without serial_number, the details of every certificate with that common name."""
    items = [item for record in selected_certificates(ctx) for item in certificate_detail_items(record)]
    return success("Certificate details fetched successfully", items)


@endpoint("DELETE", "/deleteCertificate", op="DeleteCertificate", builds=ANY_BUILD, style=PKI)
def delete_certificate(ctx):
    """Also removes the certificate's shares and its places in certificate groups."""
    record = selected_certificate(ctx)
    require_manager(ctx, record, f"delete certificate {record['common_name']}")
    delete_certificate_record(ctx.store, record)
    return success(f"Certificate {describe(record)} deleted successfully")


def _number_filter(ctx, key):
    value = text(ctx.details, key).strip()
    if not value:
        return None
    if not value.isdigit():
        raise Failure(f"{key} must be a whole number")
    return int(value)


def _algorithm_names(record):
    name = signature_algorithm(x509_of(record)).lower()
    return (name, name.split("with")[0])
