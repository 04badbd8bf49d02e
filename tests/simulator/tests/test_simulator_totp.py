"""GET /accounts/{id}/totp (FETCH_CURRENT_TOTP)."""

import base64
import hashlib
import hmac
import struct
import time

import pyotp

LONG_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"
SHORT_SECRET = "JBSWY3DPEHPK3PXP"  # 80 bits: plain pyotp >= 2.10 refuses it


def set_totp(vault, **fields):
    vault.ok("PUT", "/resources/1/accounts/1", details={"ACCOUNTNAME": "root", **fields})


def rfc6238(secret, moment, digits=6, interval=30):
    counter = struct.pack(">Q", int(moment) // interval)
    digest = hmac.new(base64.b32decode(secret), counter, hashlib.sha1).digest()
    offset = digest[-1] & 0x0F
    code = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return str(code % 10**digits).zfill(digits)


def test_current_totp_code(vault):
    vault.create_resource("web01")
    set_totp(vault, TOTP_SECRET=LONG_SECRET, TOTP_ALGORITHM="SHA512", TOTP_DIGITS="8", TOTP_VALIDITY="45")
    expected = pyotp.TOTP(LONG_SECRET, digits=8, digest=hashlib.sha512, interval=45)
    before = expected.now()
    operation = vault.ok("GET", "/accounts/1/totp")
    assert operation["name"] == "FETCH_CURRENT_TOTP"
    assert operation["Details"]["TOTP"] in (before, expected.now())
    assert len(operation["Details"]["TOTP"]) == 8


def test_short_secret_code(vault):
    vault.create_resource("web01")
    set_totp(vault, TOTP_SECRET=SHORT_SECRET.lower())
    before = rfc6238(SHORT_SECRET, time.time())
    code = vault.ok("GET", "/accounts/1/totp")["Details"]["TOTP"]
    assert code in (before, rfc6238(SHORT_SECRET, time.time()))


def test_totp_not_configured(vault):
    vault.create_resource("web01")
    vault.failed("GET", "/accounts/1/totp", "TOTP is not configured for account root")


def test_totp_of_unknown_account(vault):
    vault.failed("GET", "/accounts/5/totp", "Account with ID 5 does not exist")
