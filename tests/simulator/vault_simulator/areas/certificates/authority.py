"""The simulator's own certificate authority, which signCSR signs with.

It is made on first need and kept in the store (kind
``certificate_authority``), so a kept state keeps its CA: an RSA 2048 root
named "Vault Simulator CA", valid ten years, its key and serial number drawn
from the simulator's random source (``--seed`` reproduces them).
"""

import datetime

from cryptography import x509
from cryptography.x509.oid import NameOID

from vault_simulator.areas.certificates.material import (
    RSA,
    certificate_from_pem,
    issue,
    key_from_pem,
    key_to_pem,
    new_private_key,
    random_serial,
    to_pem,
    utc_now,
)
from vault_simulator.core.records import CERTIFICATE_AUTHORITY

CA_NAME = "Vault Simulator CA"
_RECORD_ID = "simulator"
_CA_KEY_LENGTH = 2048
_CA_VALIDITY = datetime.timedelta(days=3650)


def simulator_ca(ctx):
    """``(certificate, private key)`` of the simulator's CA, made now if it does not exist yet."""
    record = ctx.store.get(CERTIFICATE_AUTHORITY, _RECORD_ID)
    if record is None:
        key = new_private_key(ctx.rng, RSA, _CA_KEY_LENGTH, ctx.config.seed is not None)
        name = x509.Name(
            [
                x509.NameAttribute(NameOID.COMMON_NAME, CA_NAME),
                x509.NameAttribute(NameOID.ORGANIZATION_NAME, "credvault vault simulator"),
            ]
        )
        now = utc_now()
        certificate = issue(
            name,
            key.public_key(),
            name,
            key,
            {
                "serial": random_serial(ctx.rng),
                "not_before": now,
                "not_after": now + _CA_VALIDITY,
                "hash_name": "SHA256",
                "ca": True,
            },
        )
        record = {"id": _RECORD_ID, "pem": to_pem(certificate).decode(), "key_pem": key_to_pem(key).decode()}
        ctx.store.put(CERTIFICATE_AUTHORITY, _RECORD_ID, record)
    return certificate_from_pem(record["pem"]), key_from_pem(record["key_pem"])
