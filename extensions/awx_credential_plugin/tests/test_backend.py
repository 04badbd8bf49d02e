# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""``backend(**kwargs)`` against the simulators: AWX passes the source inputs and the field's metadata together."""

from __future__ import annotations

import os
import tempfile
import uuid
from pathlib import Path

import credvault_awx
import pytest
from conftest import PASSWORD, TOTP_SECRET, create_resource, source_inputs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient
from ansible_collections.credvault.vault.plugins.module_utils._totp import matches

PEM_OF_ANOTHER_KEY = (
    ec.generate_private_key(ec.SECP256R1())
    .private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    .decode()
)


def fetch(simulator, **metadata):
    return credvault_awx.backend(**source_inputs(simulator), **metadata)


def failure(simulator, **metadata):
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        fetch(simulator, **metadata)
    message = str(caught.value)
    assert PASSWORD not in message and simulator["token"] not in message
    return message


def test_password(simulators, vault):
    assert fetch(simulators["default"], resource=vault["plain"], account="root", field="password") == PASSWORD


def test_password_is_the_default_field(simulators, vault):
    assert fetch(simulators["default"], resource=vault["plain"], account="root") == PASSWORD


def test_totp(simulators, vault):
    code = fetch(simulators["default"], resource=vault["with_totp"], account="root", field="totp")
    assert code.isdigit() and len(code) == 6
    assert matches(code, TOTP_SECRET)


def test_totp_of_an_account_without_one_fails(simulators, vault):
    message = failure(simulators["default"], resource=vault["plain"], account="root", field="totp")
    assert "the vault has no TOTP for %s/root" % vault["plain"] in message
    # The fields that change the outcome: the account, or the field asked for; not the reason or the ticket.
    assert "(check Account (account), Field (field))" in message and "Reason" not in message


def test_reason_and_ticket_required(simulators, vault):
    strict = simulators["strict"]
    no_reason = failure(strict, resource=vault["strict"], account="root")
    assert "the vault refused the password of %s/root" % vault["strict"] in no_reason
    assert "reason is required" in no_reason
    no_ticket = failure(strict, resource=vault["strict"], account="root", reason="AWX job 42")
    assert "ticket ID is required" in no_ticket
    assert fetch(strict, resource=vault["strict"], account="root", reason="AWX job 42", ticket_id="CHG-1") == PASSWORD


def test_missing_resource_and_account_are_not_found(simulators, vault):
    no_resource = failure(simulators["default"], resource="awx-no-such-resource", account="root")
    assert no_resource.startswith("credvault_vault: not found: resource awx-no-such-resource does not exist")
    no_account = failure(simulators["default"], resource=vault["plain"], account="nobody")
    assert no_account.startswith("credvault_vault: not found: resource %s has no account nobody" % vault["plain"])


def test_no_access_is_a_refusal_not_a_missing_name(simulators, vault):
    default = simulators["default"]
    token = vault["password_user_token"]
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        credvault_awx.backend(**source_inputs(default, auth_token=token), resource=vault["plain"], account="root")
    message = str(caught.value)
    assert "the vault refused" in message and "not authorized" in message
    assert "not found" not in message
    assert token not in message and PASSWORD not in message


def test_wrong_token_is_refused(simulators, vault):
    default = simulators["default"]
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        credvault_awx.backend(**source_inputs(default, auth_token="not-a-token"), resource=vault["plain"], account="r")
    assert "refused" in str(caught.value) and "not-a-token" not in str(caught.value)


def test_without_ca_the_vault_certificate_is_not_trusted(simulators, vault):
    default = simulators["default"]
    inputs = source_inputs(default, ca_cert="")
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        credvault_awx.backend(**inputs, resource=vault["plain"], account="root")
    assert "certificate" in str(caught.value)


@pytest.fixture
def temporary_files(monkeypatch):
    """(path, mode) of each temporary file the plugin makes, as it was made."""
    seen = []
    real_mkstemp = tempfile.mkstemp

    def recording_mkstemp(*args, **kwargs):
        fd, path = real_mkstemp(*args, **kwargs)
        seen.append((path, os.stat(path).st_mode & 0o777))
        return fd, path

    monkeypatch.setattr(tempfile, "mkstemp", recording_mkstemp)
    return seen


def test_ca_file_is_private_and_removed(simulators, vault, temporary_files):
    assert fetch(simulators["default"], resource=vault["plain"], account="root") == PASSWORD
    ((path, mode),) = temporary_files
    assert mode == 0o600
    assert not os.path.exists(path)


def test_edition_and_build_gate_totp(simulators, vault):
    inputs = source_inputs(simulators["default"], edition="B", build="6320")
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        credvault_awx.backend(**inputs, resource=vault["with_totp"], account="root", field="totp")
    assert "is not available: this vault has no TOTP" in str(caught.value)


def test_missing_metadata_and_bad_field(simulators):
    assert "resource and account are required" in failure(simulators["default"], resource="x")
    assert "field must be password or totp" in failure(simulators["default"], resource="x", account="y", field="pin")


@pytest.fixture(scope="module")
def client_cert_vault(simulators):
    """The ``client_cert`` simulator (it demands a client certificate of its CA), its resource, and the certificate
    and key as the PEM text AWX gives."""
    simulator = simulators["client_cert"]
    certificate = {key: Path(simulator[key]).read_text() for key in ("client_cert", "client_key")}
    admin = VaultClient(
        url=simulator["url"],
        auth_token=simulator["token"],
        ca_path=simulator["ca_path"],
        client_cert=simulator["client_cert"],
        client_key=simulator["client_key"],
    )
    name = "awx-mtls-" + uuid.uuid4().hex[:8]
    try:
        create_resource(admin, name)
    finally:
        admin.close()
    return simulator, name, certificate


def test_the_client_certificate_fields_reach_a_vault_that_demands_one(client_cert_vault, temporary_files):
    simulator, name, certificate = client_cert_vault
    inputs = source_inputs(simulator, **certificate)
    assert credvault_awx.backend(**inputs, resource=name, account="root") == PASSWORD
    assert [mode for dummy_path, mode in temporary_files] == [0o600] * 3  # the CA, the certificate and the key
    assert not any(os.path.exists(path) for path, dummy_mode in temporary_files)


def test_without_the_client_certificate_the_message_names_its_fields(client_cert_vault):
    simulator, name, dummy_certificate = client_cert_vault
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        credvault_awx.backend(**source_inputs(simulator), resource=name, account="root")
    message = str(caught.value)
    assert "demands a TLS client certificate" in message
    assert "client_cert" in message and "client_key" in message


def test_a_key_that_is_not_the_certificates_is_refused_before_any_request(client_cert_vault):
    simulator, name, certificate = client_cert_vault
    inputs = source_inputs(simulator, client_cert=certificate["client_cert"], client_key=PEM_OF_ANOTHER_KEY)
    with pytest.raises(credvault_awx.CredvaultPluginError) as caught:
        credvault_awx.backend(**inputs, resource=name, account="root")
    message = str(caught.value)
    assert "client_cert and client_key (in the same file)" not in message
    assert message.startswith("credvault_vault: client_cert and client_key do not match"), message
    assert "credvault-client" not in message  # no temporary file's path
