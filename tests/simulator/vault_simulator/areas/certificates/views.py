"""SSL certificates and CSRs as the spec's output tables spell them.

Everything shown comes from the certificate itself (common name, issuer,
dates, key, signature algorithm, serial number, SANs) or from where the vault
found or deployed it. A certificate the vault found at no server (created,
signed or added as a file) shows its common name as ``DNS Name/FQDN`` and
port 0. ``serialNumber`` ("present on some items") is on every item here.
"""

from cryptography.x509.oid import NameOID

from vault_simulator.areas.certificates.material import (
    alt_names,
    common_name,
    fingerprint,
    is_self_signed,
    key_algorithm,
    key_length,
    name_part,
    signature_algorithm,
)
from vault_simulator.areas.certificates.records import chain_of, x509_of
from vault_simulator.core.records import USER
from vault_simulator.core.timefmt import millis_time, vault_date

NOT_INSTALLED_PORT = 0


def certificate_list_item(record):
    """An item of GetAllSSLCertificates (CertID and Port are numbers)."""
    certificate = x509_of(record)
    host, port = _first_installation(record)
    return {
        "CertID": int(record["id"]),
        "DNS Name/FQDN": host,
        "Port": port,
        "Common Name": record["common_name"],
        "Issuer": common_name(certificate.issuer),
        "FromDate": vault_date(certificate.not_valid_before_utc),
        "ExpiryDate": vault_date(certificate.not_valid_after_utc),
        "KeyStrength": str(key_length(certificate.public_key())),
        "SignatureAlgorithm": signature_algorithm(certificate),
        "serialNumber": record["serial"],
    }


def expiry_item(record, edition):
    """An item of GetAllSSLCertificatesExpiryDate: ``serialNumber`` in edition A only."""
    item = {"Common Name": record["common_name"], "ExpiryDate": vault_date(x509_of(record).not_valid_after_utc)}
    if edition == "A":
        item["serialNumber"] = record["serial"]
    return item


def certificate_detail_items(record):
    """The items of GetCertificateDetails for one certificate: one per server it is installed at
    (one for a certificate installed nowhere).

    ``certtype`` is ``Self-Signed`` or ``CA-Signed``; ``certificateTemplate`` the CA template
    that issued it (signCSR's templateName, else empty); ``ipaddress`` the address the vault
    reached the server at; ``intermediate`` the issuing certificate when the vault holds it
    and it is not a root, else empty. In ``endpoint``: ``port`` is a string,
    ``from_date``/``expiry_date`` read ``YYYY-MM-DD HH:MM:SS.f``, ``Sans`` joins the SANs
    with commas, ``fingerPrint`` is SHA-1, ``PrivateKey`` tells whether the vault holds the
    private key, ``isAWS`` is always false.
    """
    certificate = x509_of(record)
    installations = record["installations"] or [{"host": record["common_name"], "port": NOT_INSTALLED_PORT, "ip": ""}]
    return [
        {
            "certtype": "Self-Signed" if is_self_signed(certificate) else "CA-Signed",
            "certificateTemplate": record["template"],
            "ipaddress": installation["ip"],
            "CertificateId": record["id"],
            "isCertInstalledMulipleServers": len(record["installations"]) > 1,
            "endpoint": _endpoint(record, certificate, installation),
            "issuer": _party(certificate.issuer),
            "issuedto": _party(certificate.subject),
            "intermediate": _intermediate(record, certificate),
        }
        for installation in installations
    ]


def csr_list_item(store, csr):
    """An item of GetCSRList: CSR_ID, LOGIN_ID (the creator's user id) and KEY_STRENGTH are numbers."""
    creator = store.get(USER, csr["created_by"])
    return {
        "CSR_ID": int(csr["id"]),
        "LOGIN_ID": int(csr["created_by"]),
        "KEY_STRENGTH": csr["key_length"],
        "CREATED_BY": creator["name"] if creator else "",
        "KEYALGORITHM": csr["key_algorithm"],
        "KEYSTORE_TYPE": csr["store_type"],
        "CREATED_DATE": millis_time(csr["created"]),
        "DOMAIN_NAME": csr["common_name"],
        "VALIDITY": csr["validity_text"],
        "SIGNATURE_ALGORITHM": csr["signature_algorithm"],
        "isPassword": csr["password_given"],
    }


def _first_installation(record):
    if record["installations"]:
        first = record["installations"][0]
        return first["host"], first["port"]
    return record["common_name"], NOT_INSTALLED_PORT


def _endpoint(record, certificate, installation):
    public_key = certificate.public_key()
    return {
        "hostName": installation["host"],
        "port": str(installation["port"]),
        "expiry_date": _tenths_time(certificate.not_valid_after_utc),
        "from_date": _tenths_time(certificate.not_valid_before_utc),
        "certSignAlg": signature_algorithm(certificate),
        "Sans": ",".join(alt_names(certificate)),
        "serial": record["serial"],
        "fingerPrint": fingerprint(certificate),
        "keyalg": key_algorithm(public_key),
        "PublicKeyLength": key_length(public_key),
        "PrivateKey": record["key_pem"] is not None,
        "isAWS": False,
    }


def _party(name):
    return {
        "cname": common_name(name),
        "org": name_part(name, NameOID.ORGANIZATION_NAME),
        "orgunit": name_part(name, NameOID.ORGANIZATIONAL_UNIT_NAME),
    }


def _intermediate(record, certificate):
    issuing = next((c for c in chain_of(record) if c.subject == certificate.issuer), None)
    if issuing is None or is_self_signed(issuing) or is_self_signed(certificate):
        return {}
    return _party(issuing.subject)


def _tenths_time(moment):
    """``YYYY-MM-DD HH:MM:SS.f`` (as Java's Timestamp prints a whole second: ``.0``)."""
    return moment.strftime("%Y-%m-%d %H:%M:%S.") + str(moment.microsecond // 100000)
