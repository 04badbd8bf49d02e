"""The certificate input of createCSR and createCertificate, read and checked.

The spec lists CNAME, ALT_NAMES, ORGUNIT, ORG, LOCATION, STATE, COUNTRY
(two-letter code), PASSWORD, VALIDITY (number as string), VALIDITY_TYPE
(``days``, ``hours`` or ``minutes``), ALG, LEN, SIGALG and StoreType, and
shows only RSA, SHA256 and PKCS12 (JKS in the CSR list). Where it is silent
the simulator accepts: ALG ``RSA`` (LEN 1024, 2048, 3072, 4096) or ``EC``
(``ECDSA`` too; LEN 256, 384, 521); SIGALG SHA224, SHA256, SHA384, SHA512
(also spelled ``SHA256withRSA``); StoreType PKCS12 or JKS. Only CNAME is
required; the defaults are 365 days, RSA 2048, SHA256, PKCS12. ALT_NAMES is
comma-separated; an address literal becomes an IP SAN, anything else a DNS
SAN. Without PASSWORD the vault makes up the private-key passphrase
(readable with getCertificatePassphrase once the certificate exists).
"""

import datetime
import re
from dataclasses import dataclass

from cryptography import x509

from vault_simulator.areas.certificates.material import EC, HASHES, KEY_LENGTHS, RSA, general_name, subject_name
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.replies import Failure

STORE_TYPES = ("PKCS12", "JKS")
VALIDITY_TYPES = ("days", "hours", "minutes")
_ALGORITHMS = {"RSA": RSA, "EC": EC, "ECDSA": EC}
_DEFAULT_LENGTHS = {RSA: 2048, EC: 256}
_DNS_LABEL = r"[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?"
_DNS_NAME = re.compile(rf"(\*\.)?{_DNS_LABEL}(\.{_DNS_LABEL})*")
# About a hundred years: certificates end before year 9999.
_LONGEST_VALIDITY = {"days": 36500, "hours": 36500 * 24, "minutes": 36500 * 24 * 60}
_PASSPHRASE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"


@dataclass(frozen=True)
class CertificateInput:
    common_name: str
    subject: x509.Name
    alt_names: list
    algorithm: str
    length: int
    hash_name: str
    validity: datetime.timedelta
    validity_text: str
    store_type: str
    password: str

    def passphrase(self, rng):
        """PASSWORD, or a made-up passphrase when none was given."""
        return self.password or made_up_passphrase(rng)


def made_up_passphrase(rng):
    """A 16-character passphrase for a private key that was given none."""
    return "".join(rng.choice(_PASSPHRASE_ALPHABET) for _index in range(16))


def read_certificate_input(details):
    """The checked certificate input of ``details``; ``Failure`` naming the first bad field."""
    values = {field: text(details, field).strip() for field in ("CNAME", "ORGUNIT", "ORG", "LOCATION", "STATE")}
    values["CNAME"] = required_text(details, "CNAME")
    country = text(details, "COUNTRY").strip().upper()
    if country and not re.fullmatch(r"[A-Z]{2}", country):
        raise Failure("COUNTRY must be a two-letter country code")
    values["COUNTRY"] = country
    algorithm = _ALGORITHMS.get(text(details, "ALG").strip().upper() or RSA)
    if algorithm is None:
        raise Failure("ALG must be RSA or EC")
    validity, validity_text = _validity(details)
    return CertificateInput(
        common_name=values["CNAME"],
        subject=subject_name(values),
        alt_names=_alt_names(details),
        algorithm=algorithm,
        length=_length(details, algorithm),
        hash_name=_hash_name(details),
        validity=validity,
        validity_text=validity_text,
        store_type=_store_type(details),
        password=text(details, "PASSWORD"),
    )


def _alt_names(details):
    names = []
    for item in (part.strip() for part in text(details, "ALT_NAMES").split(",")):
        if not item:
            continue
        name = general_name(item)
        if isinstance(name, x509.DNSName) and not _DNS_NAME.fullmatch(item):
            raise Failure(f"ALT_NAMES: {item} is neither a DNS name nor an IP address")
        names.append(name)
    return names


def _length(details, algorithm):
    given = text(details, "LEN").strip()
    allowed = KEY_LENGTHS[algorithm]
    if not given:
        return _DEFAULT_LENGTHS[algorithm]
    if not given.isdigit() or int(given) not in allowed:
        raise Failure(f"LEN must be one of {', '.join(map(str, allowed))} for {algorithm} keys")
    return int(given)


def _hash_name(details):
    given = text(details, "SIGALG").strip().upper().replace("-", "") or "SHA256"
    name = given.split("WITH", maxsplit=1)[0]
    if name not in HASHES:
        raise Failure(f"SIGALG must be one of {', '.join(HASHES)}")
    return name


def _validity(details):
    """``(timedelta, "365 days")`` of VALIDITY and VALIDITY_TYPE."""
    amount = text(details, "VALIDITY").strip() or "365"
    unit = text(details, "VALIDITY_TYPE").strip().lower() or "days"
    if not amount.isdigit() or int(amount) == 0:
        raise Failure("VALIDITY must be a positive whole number")
    if unit not in VALIDITY_TYPES:
        raise Failure(f"VALIDITY_TYPE must be {', '.join(VALIDITY_TYPES[:-1])} or {VALIDITY_TYPES[-1]}")
    if int(amount) > _LONGEST_VALIDITY[unit]:
        raise Failure(f"VALIDITY may be at most {_LONGEST_VALIDITY['days']} days")
    return datetime.timedelta(**{unit: int(amount)}), f"{int(amount)} {unit}"


def _store_type(details):
    store_type = text(details, "StoreType").strip().upper() or "PKCS12"
    if store_type not in STORE_TYPES:
        raise Failure(f"StoreType must be {' or '.join(STORE_TYPES)}")
    return store_type
