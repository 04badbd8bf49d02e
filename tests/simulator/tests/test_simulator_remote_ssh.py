"""CHANGE PASSWORD with RESETTYPE REMOTE really sets the password on the host over SSH.

The host is ``fake_ssh_host.FakeHost``, an in-process paramiko server on a
loopback port: logins by password and key, sudo with and without a prompt, su
on a pty, a recorded chpasswd.
"""

import base64
import socket

import paramiko
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fake_ssh_host import FakeHost
from ssh_key_calls import create_key, import_key, pki

from vault_simulator.areas.passwords import remote_ssh

CONFIGURE = "/resources/configureremotepasswordreset"
OLD, NEW, LOGIN_PW, ROOT_PW, PASSPHRASE = "Old-pw-1!", "N3w-Remote-pw!", "Login-pw-9?", "R00t-pw-7#", "Key phrase 5"
SECRETS = (OLD, NEW, LOGIN_PW, ROOT_PW, PASSPHRASE)


@pytest.fixture
def host():
    fake = FakeHost().start()
    fake.users.update({"deploy": LOGIN_PW, "alice": OLD, "root": ROOT_PW})
    fake.sudo_rules["deploy"] = "password"
    yield fake
    fake.stop()


@pytest.fixture(autouse=True)
def short_prompt_grace(monkeypatch):
    """A NOPASSWD rule costs the wait for a prompt that never comes: keep it short here."""
    monkeypatch.setattr(remote_ssh, "PROMPT_GRACE", 0.3)


def linux_box(vault, name="web01", url="127.0.0.1", **fields):
    """A resource with accounts root, deploy and alice (as in the vault); its (resource id, alice's id)."""
    resource_id = vault.create_resource(name, account="root", password=ROOT_PW, RESOURCEURL=url, **fields)[0]
    accounts = [{"ACCOUNTNAME": "deploy", "PASSWORD": LOGIN_PW}, {"ACCOUNTNAME": "alice", "PASSWORD": OLD}]
    vault.ok("POST", f"/resources/{resource_id}/accounts", details={"ACCOUNTLIST": accounts})
    return vault.ids(name, "alice")


def configure(vault, resource_id, host, **details):
    details = {"RESOURCEIDS": [resource_id], "LINUX_SSHTELNETPORT": str(host.port), **details}
    details.setdefault("REMOTELOGINACCOUNT", "deploy")
    operation = vault.ok("POST", CONFIGURE, details=details)
    assert operation["Details"]["CONFIGURATION RESULT"][0]["STATUS"] == "Remote password reset configured successfully"


def change(vault, resource_id, account_id, new_password=NEW):
    details = {"NEWPASSWORD": new_password, "RESETTYPE": "REMOTE"}
    status, body = vault.call("PUT", f"/resources/{resource_id}/accounts/{account_id}/password", details=details)
    assert status == 200
    return body["operation"]["result"]


def stored(vault, resource_id, account_id):
    return vault.ok("GET", f"/resources/{resource_id}/accounts/{account_id}/password")["Details"]["PASSWORD"]


def assert_failed(vault, ids, result, reason):
    """Failed with ``reason``, no secret in the message, the stored password unchanged."""
    assert result == {"status": "Failed", "message": f"Remote password reset failed for web01/alice: {reason}"}
    assert not [secret for secret in SECRETS if secret in result["message"]]
    assert stored(vault, *ids) == OLD


def public_key(vault, key_name):
    line = next(k for k in vault.store.all("ssh_key") if k["name"] == key_name)["public_key"]
    key_type, blob = line.split(" ")[:2]
    return paramiko.PKey.from_type_string(key_type, base64.b64decode(blob))


def associate(vault, key_name, user="deploy", resource="web01"):
    body = pki(
        vault, "POST", "/associateKey", details={"keyName": key_name, "resourceName": resource, "userName": user}
    )
    assert body["result"]["status"] == "SUCCESS", body


# Success


def test_passauth_and_sudo_with_a_password_prompt(vault, host):
    ids = linux_box(vault)
    configure(vault, ids[0], host)
    assert change(vault, *ids) == {"status": "Success", "message": "Password changed successfully"}
    assert host.users["alice"] == NEW
    assert stored(vault, *ids) == NEW
    assert host.logins == [("deploy", "password")]
    assert host.commands[0].startswith("sudo -S -p ") and host.commands[0].endswith(" /usr/sbin/chpasswd")
    assert host.chpasswd_lines == [f"alice:{NEW}"]


def test_sudo_without_a_prompt_sends_no_password(vault, host):
    host.sudo_rules["deploy"] = "nopasswd"
    ids = linux_box(vault)
    configure(vault, ids[0], host)
    assert change(vault, *ids)["status"] == "Success"
    # A password sent for a prompt that never came would have reached chpasswd as a line.
    assert host.chpasswd_lines == [f"alice:{NEW}"]
    assert host.users["alice"] == NEW


@pytest.mark.parametrize("key_type, length", [("ecdsa", "256"), ("ssh-rsa", "2048"), ("ed25519", "")])
def test_keyauth_logs_in_with_the_associated_key_and_its_passphrase(vault, host, key_type, length):
    host.users["deploy"] = "no password login"
    host.sudo_rules["deploy"] = "nopasswd"
    ids = linux_box(vault)
    create_key(vault, "other", "ecdsa", "256")
    create_key(vault, "deploy-key", key_type, length, passPhrase=PASSPHRASE)
    associate(vault, "deploy-key")
    host.authorized_keys["deploy"] = [public_key(vault, "deploy-key")]
    configure(vault, ids[0], host, AUTHENTICATION="keyauth")
    assert change(vault, *ids)["status"] == "Success"
    assert host.logins == [("deploy", "publickey")]
    assert host.users["alice"] == NEW


def test_keyauth_with_an_imported_key(vault, host):
    host.sudo_rules["deploy"] = "nopasswd"
    private_key = ec.generate_private_key(ec.SECP256R1())
    pem = private_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.BestAvailableEncryption(PASSPHRASE.encode()),
    )
    ids = linux_box(vault)
    assert import_key(vault, "imported", pem, PASSPHRASE)["status"] == "SUCCESS"
    associate(vault, "imported")
    host.authorized_keys["deploy"] = [public_key(vault, "imported")]
    configure(vault, ids[0], host, AUTHENTICATION="keyauth")
    assert change(vault, *ids)["status"] == "Success"
    assert host.logins == [("deploy", "publickey")]


def test_su_to_the_root_account_on_a_pty(vault, host):
    host.sudo_rules.clear()
    ids = linux_box(vault)
    configure(vault, ids[0], host, ELEVATIONTYPE="su", ROOTACCOUNT="root")
    assert change(vault, *ids)["status"] == "Success"
    assert host.commands == ["su - root -c /usr/sbin/chpasswd"]
    assert host.users["alice"] == NEW
    assert stored(vault, *ids) == NEW


def test_the_dns_name_is_the_target_without_a_resource_url(vault, host):
    resource_id, alice = linux_box(vault, name="localhost", url="")
    configure(vault, resource_id, host)
    assert change(vault, resource_id, alice)["status"] == "Success"
    assert host.users["alice"] == NEW


def test_a_login_account_of_another_resource(vault, host):
    jump = vault.create_resource("jump01", account="deploy", password=LOGIN_PW)
    ids = linux_box(vault)
    configure(vault, ids[0], host, RESOURCEIDENTIFIER="others", WDRESOURCEID=jump[0], WDACCOUNTID=jump[1])
    assert change(vault, *ids)["status"] == "Success"
    assert host.logins == [("deploy", "password")]


# Failures: the message says why, holds no secret, and the stored password stays


def test_connection_refused(vault, host):
    with socket.create_server(("127.0.0.1", 0)) as unused:
        port = unused.getsockname()[1]
    ids = linux_box(vault)
    configure(vault, ids[0], host, LINUX_SSHTELNETPORT=str(port))
    assert_failed(vault, ids, change(vault, *ids), f"connection to 127.0.0.1:{port} refused")


def test_wrong_login_password(vault, host):
    host.users["deploy"] = "changed on the host"
    ids = linux_box(vault)
    configure(vault, ids[0], host)
    assert_failed(vault, ids, change(vault, *ids), "authentication of deploy with its password failed")
    assert host.users["alice"] == OLD


def test_a_key_the_host_does_not_know(vault, host):
    ids = linux_box(vault)
    create_key(vault, "deploy-key", "ecdsa", "256", passPhrase=PASSPHRASE)
    associate(vault, "deploy-key")
    configure(vault, ids[0], host, AUTHENTICATION="keyauth")
    assert_failed(vault, ids, change(vault, *ids), "authentication of deploy with its key failed")


def test_keyauth_without_an_associated_key(vault, host):
    ids = linux_box(vault)
    configure(vault, ids[0], host, AUTHENTICATION="keyauth")
    reason = "no SSH key is associated with user deploy on resource web01 (keyauth)"
    assert_failed(vault, ids, change(vault, *ids), reason)
    assert host.connections == 0


def test_sudo_refuses_a_wrong_password(vault, host):
    host.users["deploy"] = "host password"
    host.authorized_keys["deploy"] = []
    ids = linux_box(vault)
    create_key(vault, "deploy-key", "ecdsa", "256")
    associate(vault, "deploy-key")
    host.authorized_keys["deploy"] = [public_key(vault, "deploy-key")]
    configure(vault, ids[0], host, AUTHENTICATION="keyauth")
    reason = "sudo /usr/sbin/chpasswd as deploy failed (exit status 1): sudo: 2 incorrect password attempts"
    assert_failed(vault, ids, change(vault, *ids), reason)
    assert host.users["alice"] == OLD


def test_sudo_refuses_a_user_without_a_rule(vault, host):
    host.sudo_rules["deploy"] = "none"
    ids = linux_box(vault)
    configure(vault, ids[0], host)
    reason = "sudo /usr/sbin/chpasswd as deploy failed (exit status 1): deploy is not in the sudoers file."
    assert_failed(vault, ids, change(vault, *ids), reason)


def test_su_with_a_wrong_root_password(vault, host):
    host.users["root"] = "another root password"
    ids = linux_box(vault)
    configure(vault, ids[0], host, ELEVATIONTYPE="su", ROOTACCOUNT="root")
    assert_failed(vault, ids, change(vault, *ids), "su to root failed (exit status 1): su: Authentication failure")
    assert host.users["alice"] == OLD


def test_chpasswd_failure(vault, host):
    host.chpasswd_fails = True
    ids = linux_box(vault)
    configure(vault, ids[0], host)
    reason = "/usr/sbin/chpasswd failed (exit status 1): chpasswd: (user alice) pam_chauthtok() failed, error:"
    assert_failed(vault, ids, change(vault, *ids), reason)


def test_a_host_that_does_not_answer_times_out(vault, monkeypatch):
    monkeypatch.setattr(remote_ssh, "TIMEOUT", 0.5)
    with socket.create_server(("127.0.0.1", 0)) as silent:
        ids = linux_box(vault)
        vault.ok(
            "POST", CONFIGURE, details={"RESOURCEIDS": [ids[0]], "LINUX_SSHTELNETPORT": str(silent.getsockname()[1])}
        )
        result = change(vault, *ids)
    assert_failed(vault, ids, result, "no answer within 0.5 seconds")


@pytest.mark.parametrize(
    "url, reason",
    [
        ("192.0.2.10", "192.0.2.10 resolves to 192.0.2.10: only loopback targets are allowed in the simulator"),
        (
            "ssh://192.0.2.10:22/",
            "192.0.2.10 resolves to 192.0.2.10: only loopback targets are allowed in the simulator",
        ),
        (
            "no-such-host.invalid",
            "no-such-host.invalid does not resolve: only loopback targets are allowed in the simulator",
        ),
    ],
)
def test_targets_other_than_loopback_are_refused_without_connecting(vault, host, monkeypatch, url, reason):
    def no_connection(*args, **kwargs):
        raise AssertionError("connected")

    monkeypatch.setattr(remote_ssh.socket, "create_connection", no_connection)
    ids = linux_box(vault, url=url)
    configure(vault, ids[0], host)
    assert_failed(vault, ids, change(vault, *ids), reason)


@pytest.mark.parametrize(
    "details, reason",
    [
        ({"REMOTEMODE": "telnet"}, "the simulator resets over ssh only, not telnet"),
        (
            {"LINUX_LANDINGSERVER": "jump01"},
            "the simulator does not reset through a landing server (LINUX_LANDINGSERVER)",
        ),
    ],
)
def test_what_the_simulator_does_not_perform_fails_without_connecting(vault, host, details, reason):
    ids = linux_box(vault)
    configure(vault, ids[0], host, **details)
    assert_failed(vault, ids, change(vault, *ids), reason)
    assert host.connections == 0


def test_a_resource_not_configured_is_never_contacted(vault, host):
    ids = linux_box(vault)
    result = change(vault, *ids)
    assert result == {"status": "Failed", "message": "Remote password reset is not configured for resource web01"}
    assert host.connections == 0
    assert stored(vault, *ids) == OLD


def test_a_policy_failure_is_found_before_connecting(vault, host):
    ids = linux_box(vault)
    configure(vault, ids[0], host)
    assert change(vault, *ids, new_password="short")["status"] == "Failed"
    assert host.connections == 0


def test_a_local_change_never_connects(vault, host):
    ids = linux_box(vault)
    configure(vault, ids[0], host)
    details = {"NEWPASSWORD": NEW, "RESETTYPE": "LOCAL"}
    vault.ok("PUT", f"/resources/{ids[0]}/accounts/{ids[1]}/password", details=details)
    assert host.connections == 0
    assert host.users["alice"] == OLD


def test_no_local_key_or_agent_is_offered(vault, host, monkeypatch):
    offered = []
    original = paramiko.SSHClient.connect

    def spy(self, *args, **kwargs):
        offered.append((kwargs["allow_agent"], kwargs["look_for_keys"]))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(paramiko.SSHClient, "connect", spy)
    ids = linux_box(vault)
    configure(vault, ids[0], host)
    assert change(vault, *ids)["status"] == "Success"
    assert offered == [(False, False)]
