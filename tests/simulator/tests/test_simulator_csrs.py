"""Certificate signing requests: create, list, sign with the simulator's CA."""

import datetime

import pytest
from cryptography import x509
from cryptography.hazmat.primitives.serialization import pkcs7, pkcs12
from cryptography.x509.oid import NameOID

from conformance.scenarios.certificates import PKI_ROOT, download, pki, pki_failed

WEB = "www.example.com"
SIGN = {"serverName": "ca.example.com", "caName": "Example CA", "templateName": "WebServer"}


def create_csr(vault, common_name=WEB, token=None, **fields):
    kwargs = {"token": token} if token else {}
    body = pki(vault, "POST", "/createCSR", details={"CNAME": common_name, "LEN": "1024", **fields}, **kwargs)
    (item,) = body["details"]
    return item["CSR_ID"]


def csr_list(vault, **kwargs):
    return pki(vault, "GET", "/getCSRList", **kwargs)["details"]


def sign(vault, csr_id, **kwargs):
    return pki(vault, "POST", "/signCSR", details={**SIGN, "CSR_ID": str(csr_id)}, **kwargs)


def chain_of(vault, common_name=WEB):
    """The certificate and its chain, as edition B's fileType P7B hands them out."""
    data = download(vault, "/getCertificate", common_name=common_name, fileType="P7B").data
    return pkcs7.load_pem_pkcs7_certificates(data)


@pytest.mark.parametrize("edition, name", [("A", "CreateCSR"), ("B", "CreateCertificate")])
def test_create_csr_name_by_edition(make_vault, edition, name):
    vault = make_vault(edition=edition)
    body = pki(vault, "POST", "/createCSR", details={"CNAME": WEB, "LEN": "1024"})
    assert body["name"] == name and body["details"] == [{"CSR_ID": 1}]
    assert pki(vault, "POST", "/createCSR", details={"CNAME": WEB, "LEN": "1024"})["details"] == [{"CSR_ID": 2}]


def test_the_csr_is_a_real_signed_request(vault):
    create_csr(vault, ALT_NAMES="alt.example.com,192.0.2.7", ORG="Example", LEN="2048", SIGALG="SHA512")
    csr = x509.load_pem_x509_csr(vault.store.get("csr", "1")["pem"].encode())
    assert csr.is_signature_valid and csr.public_key().key_size == 2048
    assert csr.subject.rfc4514_string() == f"O=Example,CN={WEB}"
    assert csr.signature_hash_algorithm.name == "sha512"
    sans = csr.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert [str(name.value) for name in sans] == ["alt.example.com", "192.0.2.7"]


def test_csr_list_items(vault):
    create_csr(
        vault, ALG="EC", LEN="256", SIGALG="SHA384", StoreType="JKS", PASSWORD="pw", VALIDITY="2", VALIDITY_TYPE="hours"
    )
    (item,) = csr_list(vault)
    created = datetime.datetime.strptime(item.pop("CREATED_DATE"), "%Y-%m-%d %H:%M:%S.%f")
    assert abs(datetime.datetime.now() - created) < datetime.timedelta(minutes=1)
    assert item == {
        "CSR_ID": 1,
        "LOGIN_ID": 1,
        "KEY_STRENGTH": 256,
        "CREATED_BY": "admin",
        "KEYALGORITHM": "EC",
        "KEYSTORE_TYPE": "JKS",
        "DOMAIN_NAME": WEB,
        "VALIDITY": "2 hours",
        "SIGNATURE_ALGORITHM": "SHA384withECDSA",
        "isPassword": True,
    }
    create_csr(vault, "api.example.com")
    assert [i["isPassword"] for i in csr_list(vault)] == [True, False]
    assert pki(vault, "GET", "/getCSRList")["totalRows"] == 2


def test_csr_list_filters_by_common_name(vault):
    create_csr(vault)
    create_csr(vault, "api.example.com")
    create_csr(vault)
    items = csr_list(vault, details={"common_name": "WWW.example.com"})
    assert [i["CSR_ID"] for i in items] == [1, 3]
    assert csr_list(vault, details={"common_name": "none.example.com"}) == []


def test_csr_creation_checks_the_input(vault):
    pki_failed(
        vault,
        "POST",
        "/createCSR",
        "COUNTRY must be a two-letter country code",
        details={"CNAME": WEB, "COUNTRY": "DEU"},
    )
    pki_failed(vault, "POST", "/createCSR", "CNAME is required", details={"LEN": "1024"})
    assert csr_list(vault) == []


def test_sign_issues_a_certificate_from_the_simulator_ca(make_vault):
    vault = make_vault(edition="B")
    csr_id = create_csr(
        vault, ALT_NAMES="alt.example.com", ORG="Example", COUNTRY="DE", PASSWORD="Pass-1", VALIDITY="10"
    )
    message = sign(vault, csr_id)["result"]["message"]
    (item,) = pki(vault, "GET", "/getAllSSLCertificates")["details"]
    assert (
        message == f"CSR 1 signed by Vault Simulator CA: certificate {WEB} (serial number "
        f"{item['serialNumber']}) stored"
    )
    assert item["Issuer"] == "Vault Simulator CA"
    leaf, ca = chain_of(vault)
    leaf.verify_directly_issued_by(ca)
    assert ca.subject == ca.issuer and ca.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
    assert leaf.subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)[0].value == "Example"
    sans = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert sans.get_values_for_type(x509.DNSName) == ["alt.example.com"]
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc == datetime.timedelta(days=10)
    key, certificate, others = pkcs12.load_key_and_certificates(
        download(vault, "/getCertificateKeyStore", common_name=WEB).data, b"Pass-1"
    )
    assert certificate == leaf and others == [ca]
    assert key.public_key().public_numbers() == leaf.public_key().public_numbers()
    (detail,) = pki(vault, "GET", "/getCertificateDetails", details={"common_name": WEB})["details"]
    assert (detail["certtype"], detail["certificateTemplate"]) == ("CA-Signed", "WebServer")
    assert detail["issuer"]["cname"] == "Vault Simulator CA" and detail["intermediate"] == {}


def test_one_ca_signs_every_csr(make_vault):
    vault = make_vault(edition="B")
    sign(vault, create_csr(vault))
    sign(vault, create_csr(vault, "api.example.com"))
    assert chain_of(vault)[1] == chain_of(vault, "api.example.com")[1]


def test_seed_reproduces_the_ca_and_the_certificate(make_vault):
    def signed(seed):
        vault = make_vault(edition="B", seed=seed)
        sign(vault, create_csr(vault))
        leaf, ca = chain_of(vault)
        return (
            ca.public_key().public_numbers(),
            ca.serial_number,
            leaf.serial_number,
            leaf.public_key().public_numbers(),
        )

    assert signed(3) == signed(3)


def test_sign_failures(vault):
    pki_failed(vault, "POST", "/signCSR", "CSR with ID 9 does not exist", details={**SIGN, "CSR_ID": "9"})
    pki_failed(
        vault,
        "POST",
        "/signCSR",
        "templateName is required",
        details={"serverName": "ca", "caName": "ca", "CSR_ID": "1"},
    )
    csr_id = create_csr(vault)
    sign(vault, csr_id)
    pki_failed(vault, "POST", "/signCSR", "CSR 1 has already been signed", details={**SIGN, "CSR_ID": "1"})
    assert len(pki(vault, "GET", "/getAllSSLCertificates")["details"]) == 1
    assert [i["CSR_ID"] for i in csr_list(vault)] == [1]


def test_password_user_sees_and_signs_own_csrs(vault):
    pat = vault.create_api_user("pat")
    create_csr(vault, "admin.example.com")
    own = create_csr(vault, "pat.example.com", token=pat)
    assert [i["DOMAIN_NAME"] for i in csr_list(vault, token=pat)] == ["pat.example.com"]
    assert csr_list(vault, token=pat)[0]["LOGIN_ID"] == int(
        vault.ok("GET", "/user/getUserId", query={"USERNAME": "pat"})["Details"]["USERID"]
    )
    assert len(csr_list(vault)) == 2
    pki_failed(
        vault, "POST", "/signCSR", "You are not authorized to sign CSR 1", token=pat, details={**SIGN, "CSR_ID": "1"}
    )
    sign(vault, own, token=pat)
    assert [i["Common Name"] for i in pki(vault, "GET", "/getAllSSLCertificates", token=pat)["details"]] == [
        "pat.example.com"
    ]


def test_csr_signed_by_admin_belongs_to_its_creator(vault):
    pat = vault.create_api_user("pat")
    sign(vault, create_csr(vault, "pat.example.com", token=pat))
    status, body = vault.call("GET", "/getAllSSLCertificates", root=PKI_ROOT, token=pat)
    assert status == 200 and [i["Common Name"] for i in body["details"]] == ["pat.example.com"]
