"""Certificate signing requests: create, list, and sign with the simulator's CA.

A CSR (kind ``csr``) keeps its PEM, its private key (PKCS#8 PEM) with the
key's passphrase, and what the certificate input asked for; once signed it
stays in the list and names the certificate it became (``certificate_id``).
An Administrator or Privileged Administrator sees and signs every CSR, any
other user the CSRs they created.
"""

import datetime

from vault_simulator.areas.certificates.authority import CA_NAME, simulator_ca
from vault_simulator.areas.certificates.creation_input import read_certificate_input
from vault_simulator.areas.certificates.material import (
    csr_from_pem,
    issue,
    key_from_pem,
    key_to_pem,
    new_private_key,
    random_serial,
    requested_alt_names,
    signature_algorithm,
    signing_request,
    to_pem,
    utc_now,
)
from vault_simulator.areas.certificates.records import describe, new_certificate
from vault_simulator.areas.certificates.views import csr_list_item
from vault_simulator.core.access import FULL_REACH_ROLES
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.records import CSR
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.styles import PKI
from vault_simulator.core.timefmt import now_iso


@endpoint("POST", "/createCSR", op="CreateCSR", builds={"A": 0}, style=PKI)
@endpoint("POST", "/createCSR", op="CreateCertificate", builds={"B": 0}, style=PKI)
def create_csr(ctx):
    """A new key pair and a CSR for it, from the certificate input (see ``creation_input``).
    The operation is named CreateCSR, in edition B CreateCertificate; details is
    ``[{"CSR_ID": <number>}]``."""
    request = read_certificate_input(ctx.details)
    key = new_private_key(ctx.rng, request.algorithm, request.length, ctx.config.seed is not None)
    csr = signing_request(key, request.subject, request.alt_names, request.hash_name)
    record = {
        "id": ctx.store.next_id(CSR),
        "common_name": request.common_name,
        "pem": to_pem(csr).decode(),
        "key_pem": key_to_pem(key).decode(),
        "passphrase": request.passphrase(ctx.rng),
        "password_given": bool(request.password),
        "key_algorithm": request.algorithm,
        "key_length": request.length,
        "store_type": request.store_type,
        "validity_seconds": int(request.validity.total_seconds()),
        "validity_text": request.validity_text,
        "hash_name": request.hash_name,
        "signature_algorithm": signature_algorithm(csr),
        "created_by": ctx.user["id"],
        "created": now_iso(),
        "certificate_id": None,
    }
    ctx.store.put(CSR, record["id"], record)
    ctx.audit["resource"] = request.common_name
    return success(f"CSR for {request.common_name} created successfully", [{"CSR_ID": int(record["id"])}])


@endpoint("GET", "/getCSRList", op="GetCSRList", builds=ANY_BUILD, style=PKI)
def list_csrs(ctx):
    """Every CSR the caller can see; the optional ``common_name`` keeps those for that name (any case)."""
    wanted = text(ctx.details, "common_name").strip()
    csrs = ctx.store.where_ignoring_case(CSR, common_name=wanted) if wanted else ctx.store.all(CSR)
    items = [csr_list_item(ctx.store, csr) for csr in csrs if _can_see(ctx, csr)]
    return success("CSRs fetched successfully", items, totalRows=len(items))


@endpoint("POST", "/signCSR", op="SignCSR", builds=ANY_BUILD, style=PKI)
def sign_csr(ctx):
    """Sign CSR ``CSR_ID`` and store the certificate (with the CSR's key, passphrase and
    StoreType; owned by the CSR's creator; ``certificateTemplate`` is templateName).

    serverName and caName name the CA server a real vault sends the CSR to: they are
    required, but the simulator has one CA, "Vault Simulator CA" (made on first need), and
    signs every CSR with it. The certificate ends when the CSR's VALIDITY says, or with the
    CA if that is sooner. A CSR is signed once.
    """
    for key in ("serverName", "caName"):
        required_text(ctx.details, key)
    template = required_text(ctx.details, "templateName")
    csr_id = required_text(ctx.details, "CSR_ID")
    record = ctx.store.get(CSR, csr_id)
    if record is None:
        raise Failure(f"CSR with ID {csr_id} does not exist")
    if not _can_see(ctx, record):
        raise Failure(f"You are not authorized to sign CSR {csr_id}")
    if record["certificate_id"] is not None:
        raise Failure(f"CSR {csr_id} has already been signed")
    ca_certificate, ca_key = simulator_ca(ctx)
    csr = csr_from_pem(record["pem"])
    now = utc_now()
    certificate = issue(
        csr.subject,
        csr.public_key(),
        ca_certificate.subject,
        ca_key,
        {
            "serial": random_serial(ctx.rng),
            "not_before": now,
            "hash_name": record["hash_name"],
            "not_after": min(
                now + datetime.timedelta(seconds=record["validity_seconds"]), ca_certificate.not_valid_after_utc
            ),
            "alt_names": requested_alt_names(csr),
        },
    )
    stored = new_certificate(
        ctx,
        certificate,
        [ca_certificate],
        key_from_pem(record["key_pem"]),
        record["passphrase"],
        store_type=record["store_type"],
        template=template,
        owner_id=record["created_by"],
    )
    record["certificate_id"] = stored["id"]
    ctx.store.put(CSR, record["id"], record)
    ctx.audit["resource"] = record["common_name"]
    return success(f"CSR {csr_id} signed by {CA_NAME}: certificate {describe(stored)} stored")


def _can_see(ctx, csr):
    return ctx.user["role"] in FULL_REACH_ROLES or csr["created_by"] == ctx.user["id"]
