"""An account's TOTP (edition A from build 12430): the TOTP_* input fields, and
FETCH_CURRENT_TOTP, the current code."""

import base64
import binascii
import hashlib

import pyotp

from vault_simulator.core.access import VIEW, require_account_access
from vault_simulator.core.finders import account_and_resource
from vault_simulator.core.inputs import text
from vault_simulator.core.registry import endpoint
from vault_simulator.core.replies import Failure, success

TOTP_FIELDS = ("TOTP_SECRET", "TOTP_ALGORITHM", "TOTP_DIGITS", "TOTP_VALIDITY")
ALGORITHMS = {"SHA1": hashlib.sha1, "SHA256": hashlib.sha256, "SHA512": hashlib.sha512}
# Spec defaults: "default SHA1", "default 6", "seconds; default 30".
DEFAULTS = {"secret": "", "algorithm": "SHA1", "digits": 6, "validity": 30}


def updated_totp(current, details):
    """The account's TOTP settings after ``details``; ``None`` means no TOTP.

    "On edit, an empty value removes the TOTP": an empty TOTP_SECRET clears it.
    The other fields change the existing settings or complete a new secret.
    """
    if "TOTP_SECRET" in details and not text(details, "TOTP_SECRET").strip():
        return None
    settings = dict(current or DEFAULTS)
    if "TOTP_SECRET" in details:
        settings["secret"] = _base32_secret(text(details, "TOTP_SECRET"))
    if not settings["secret"]:
        raise Failure("TOTP_SECRET is required to configure TOTP")
    if "TOTP_ALGORITHM" in details:
        settings["algorithm"] = text(details, "TOTP_ALGORITHM").upper()
        if settings["algorithm"] not in ALGORITHMS:
            raise Failure("TOTP_ALGORITHM must be SHA1, SHA256 or SHA512")
    if "TOTP_DIGITS" in details:
        if text(details, "TOTP_DIGITS") not in ("6", "8"):
            raise Failure("TOTP_DIGITS must be 6 or 8")
        settings["digits"] = int(text(details, "TOTP_DIGITS"))
    if "TOTP_VALIDITY" in details:
        validity = text(details, "TOTP_VALIDITY")
        if not validity.isdigit() or int(validity) == 0:
            raise Failure("TOTP_VALIDITY must be a positive number of seconds")
        settings["validity"] = int(validity)
    return settings


@endpoint("GET", "/accounts/<account_id>/totp", op="FETCH_CURRENT_TOTP", builds={"A": 12430})
def fetch_current_totp(ctx, account_id):
    """Details.TOTP is the current code, as a string."""
    account, resource = account_and_resource(ctx.store, account_id)
    require_account_access(
        ctx.store, ctx.user, resource, account, VIEW, f"retrieve the TOTP of {resource['name']}/{account['name']}"
    )
    if account["totp"] is None:
        raise Failure(f"TOTP is not configured for account {account['name']}")
    return success("TOTP fetched successfully", {"TOTP": current_code(account["totp"])})


def current_code(settings):
    return _AnyLengthTOTP(
        settings["secret"],
        digits=settings["digits"],
        digest=ALGORITHMS[settings["algorithm"]],
        interval=settings["validity"],
    ).now()


class _AnyLengthTOTP(pyotp.TOTP):
    """pyotp (2.10 and later) refuses secrets shorter than 112 bits, such as the
    common 16-character (80-bit) ones; the spec sets no minimum length."""

    def byte_secret(self):
        return _decode(self.secret)


def _decode(secret):
    return base64.b32decode(secret + "=" * (-len(secret) % 8), casefold=True)


def _base32_secret(secret):
    normalized = secret.replace(" ", "").upper()
    try:
        _decode(normalized)
    except (binascii.Error, ValueError):
        raise Failure("TOTP_SECRET is not a valid base32 secret") from None
    return normalized
