"""X.509 material made and read with ``cryptography``: keys, certificates, CSRs,
and the file encodings the certificate endpoints hand out.

Keys come from ``core.seeded_keys`` and serial numbers from the simulator's random
source, so ``--seed`` reproduces them. Names follow Java's, as the vault's
own do: signature algorithms read ``SHA256withRSA``, key algorithms ``RSA``
or ``EC``.
"""

import datetime
import hashlib
import ipaddress

from cryptography import x509
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs7, pkcs12
from cryptography.x509.oid import NameOID, SignatureAlgorithmOID

from vault_simulator.core.seeded_keys import ec_key, rsa_key

RSA, EC = "RSA", "EC"
KEY_LENGTHS = {RSA: (1024, 2048, 3072, 4096), EC: (256, 384, 521)}
HASHES = {"SHA224": hashes.SHA224, "SHA256": hashes.SHA256, "SHA384": hashes.SHA384, "SHA512": hashes.SHA512}
# Subject attributes by the certificate input field that carries them.
SUBJECT_FIELDS = (
    ("CNAME", NameOID.COMMON_NAME),
    ("ORGUNIT", NameOID.ORGANIZATIONAL_UNIT_NAME),
    ("ORG", NameOID.ORGANIZATION_NAME),
    ("LOCATION", NameOID.LOCALITY_NAME),
    ("STATE", NameOID.STATE_OR_PROVINCE_NAME),
    ("COUNTRY", NameOID.COUNTRY_NAME),
)
_PEM_CERTIFICATE = b"-----BEGIN CERTIFICATE-----"
_ECDSA_SIGNATURES = (
    SignatureAlgorithmOID.ECDSA_WITH_SHA1,
    SignatureAlgorithmOID.ECDSA_WITH_SHA224,
    SignatureAlgorithmOID.ECDSA_WITH_SHA256,
    SignatureAlgorithmOID.ECDSA_WITH_SHA384,
    SignatureAlgorithmOID.ECDSA_WITH_SHA512,
)
_UNHASHED_SIGNATURES = {SignatureAlgorithmOID.ED25519: "Ed25519", SignatureAlgorithmOID.ED448: "Ed448"}


def new_private_key(rng, algorithm, length, seeded):
    """An RSA key of ``length`` bits, or an EC key on the NIST curve of ``length`` bits."""
    return rsa_key(rng, length, seeded) if algorithm == RSA else ec_key(rng, length, seeded)


def random_serial(rng):
    """A positive 64-bit serial number with its top bit set (16 hex digits)."""
    return rng.getrandbits(63) | (1 << 63)


def subject_name(values):
    """``values`` maps certificate input fields (CNAME, ORG, ...) to their text; empty ones are left out."""
    return x509.Name([x509.NameAttribute(oid, values[field]) for field, oid in SUBJECT_FIELDS if values.get(field)])


def general_name(text):
    """An IP address SAN for an address literal, a DNS SAN for anything else."""
    try:
        return x509.IPAddress(ipaddress.ip_address(text))
    except ValueError:
        return x509.DNSName(text)


def issue(subject, public_key, issuer, signing_key, options):
    """A certificate for ``public_key`` signed by ``signing_key`` in the name of ``issuer``.

    ``options`` holds ``serial``, ``not_before``, ``not_after``, ``hash_name``,
    ``alt_names`` (general names) and ``ca`` (True for a certificate authority);
    ``issuer_public_key`` may name the signer's public key for the authority key identifier.
    """
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(options["serial"])
        .not_valid_before(options["not_before"])
        .not_valid_after(options["not_after"])
        .add_extension(x509.BasicConstraints(ca=options.get("ca", False), path_length=None), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(
                options.get("issuer_public_key", signing_key.public_key())
            ),
            critical=False,
        )
    )
    if options.get("alt_names"):
        builder = builder.add_extension(x509.SubjectAlternativeName(options["alt_names"]), critical=False)
    return builder.sign(signing_key, HASHES[options["hash_name"]]())


def signing_request(key, subject, alt_names, hash_name):
    builder = x509.CertificateSigningRequestBuilder().subject_name(subject)
    if alt_names:
        builder = builder.add_extension(x509.SubjectAlternativeName(alt_names), critical=False)
    return builder.sign(key, HASHES[hash_name]())


def requested_alt_names(csr):
    """The subject alternative names a CSR asks for (empty when it asks for none)."""
    try:
        return list(csr.extensions.get_extension_for_class(x509.SubjectAlternativeName).value)
    except x509.ExtensionNotFound:
        return []


def utc_now():
    """Now, to the second (certificates carry no fractions)."""
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0)


# ---- reading ----------------------------------------------------------------------------------------------------


def load_certificates(data):
    """The certificates of a PEM file (one or more, leaf first) or of a DER file; ``ValueError`` otherwise."""
    if _PEM_CERTIFICATE in data:
        return x509.load_pem_x509_certificates(data)
    return [x509.load_der_x509_certificate(data)]


def load_pkcs12(data, password):
    """``(key, certificate, other certificates)`` of a PKCS#12 keystore; ``ValueError`` when it cannot be read."""
    key, certificate, others = pkcs12.load_key_and_certificates(data, password.encode() or None)
    if certificate is None:
        raise ValueError("the keystore holds no certificate")
    return key, certificate, list(others)


def certificate_from_pem(text):
    return x509.load_pem_x509_certificate(text.encode())


def key_from_pem(text):
    return serialization.load_pem_private_key(text.encode(), password=None)


def csr_from_pem(text):
    return x509.load_pem_x509_csr(text.encode())


# ---- describing -------------------------------------------------------------------------------------------------


def name_part(name, oid):
    """The first value of attribute ``oid`` in ``name``; empty when there is none."""
    values = name.get_attributes_for_oid(oid)
    return str(values[0].value) if values else ""


def common_name(name):
    return name_part(name, NameOID.COMMON_NAME)


def serial_text(certificate):
    """The serial number as lower-case hex without leading zeros (as Java's BigInteger prints it)."""
    return format(certificate.serial_number, "x")


def normalized_serial(text):
    """A serial number given in input (any case, colons or spaces allowed) as ``serial_text`` spells it."""
    digits = "".join(text.split()).replace(":", "").lower().lstrip("0")
    return digits or "0"


def fingerprint(certificate):
    """SHA-1 of the DER encoding, upper-case hex pairs joined by colons."""
    return ":".join(f"{byte:02X}" for byte in certificate.fingerprint(hashes.SHA1()))


def identity(certificate):
    """SHA-256 of the DER encoding: the same certificate found twice has the same identity."""
    return hashlib.sha256(to_der(certificate)).hexdigest()


def key_algorithm(public_key):
    if isinstance(public_key, rsa.RSAPublicKey):
        return RSA
    if isinstance(public_key, ec.EllipticCurvePublicKey):
        return EC
    return type(public_key).__name__.replace("PublicKey", "")


def key_length(public_key):
    """Bits of an RSA modulus or of an EC curve; 256 for other keys (Ed25519)."""
    if isinstance(public_key, rsa.RSAPublicKey):
        return public_key.key_size
    if isinstance(public_key, ec.EllipticCurvePublicKey):
        return public_key.curve.key_size
    return 256


def signature_algorithm(signed):
    """Java's name for the signature of a certificate or CSR: ``SHA256withRSA``, ``SHA384withECDSA``,
    ``Ed25519``; the dotted OID of an algorithm without such a name."""
    oid = signed.signature_algorithm_oid
    try:
        digest = signed.signature_hash_algorithm
    except UnsupportedAlgorithm:
        digest = None
    if digest is None:
        return _UNHASHED_SIGNATURES.get(oid, oid.dotted_string)
    signer = "ECDSA" if oid in _ECDSA_SIGNATURES else "RSA"
    return f"{digest.name.upper().replace('-', '')}with{signer}"


def alt_names(certificate):
    """The subject alternative names as text (DNS names and IP addresses)."""
    try:
        extension = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName)
    except x509.ExtensionNotFound:
        return []
    return [str(name.value) for name in extension.value]


def is_self_signed(certificate):
    return certificate.issuer == certificate.subject


# ---- encoding ---------------------------------------------------------------------------------------------------


def to_pem(signed):
    """PEM of a certificate or a CSR."""
    return signed.public_bytes(serialization.Encoding.PEM)


def to_der(certificate):
    return certificate.public_bytes(serialization.Encoding.DER)


def to_p7b(certificates):
    """A PEM PKCS#7 (``-----BEGIN PKCS7-----``) bundle of ``certificates``."""
    return pkcs7.serialize_certificates(certificates, serialization.Encoding.PEM)


def to_pkcs12(alias, key, certificate, chain, passphrase):
    """A PKCS#12 keystore holding the key, its certificate and ``chain``, protected by ``passphrase``."""
    protection = (
        serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    )
    return pkcs12.serialize_key_and_certificates(alias.encode(), key, certificate, chain or None, protection)


def key_to_pem(key, passphrase=""):
    """PKCS#8 PEM of ``key``, encrypted with ``passphrase`` when one is given."""
    protection = (
        serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    )
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, protection)


def key_to_der(key):
    """Unencrypted PKCS#8 DER (what a Java keystore protects)."""
    return key.private_bytes(
        serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
