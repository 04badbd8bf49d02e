"""Where and how the simulator logs in for a remote password reset, from what the vault stores.

The target is the host of the resource's RESOURCE URL (``ssh://host:port/``,
``host`` or ``host:port``; only the host is used) or, without one, its DNS
name (the simulator's DNS name is the resource name). It must resolve to
loopback addresses only: the simulator never connects anywhere else.

The login account is REMOTELOGINACCOUNT, an account of the resource
(RESOURCEIDENTIFIER ``linux``; the account being changed when none is
configured), or the account WDACCOUNTID of resource WDRESOURCEID (``others``).
AUTHENTICATION ``passauth`` logs in with its password stored in the vault;
``keyauth`` with the private key of the oldest SSH key of the vault's key
store associated with that user on that resource (``associateKey``),
decrypted with the key's passphrase. The login account's password also
answers sudo's prompt; ELEVATIONTYPE ``su`` uses the password of ROOTACCOUNT,
an account of the resource.
"""

import io
import ipaddress
import socket
from urllib.parse import urlsplit

import paramiko
from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

from vault_simulator.areas.passwords.remote_ssh import Login, RemoteError
from vault_simulator.core.finders import account_by_name
from vault_simulator.core.records import ACCOUNT, RESOURCE, SSH_KEY, SSH_KEY_ASSOCIATION

LOOPBACK_ONLY = "only loopback targets are allowed in the simulator"
_PARAMIKO_KEYS = (
    (rsa.RSAPrivateKey, paramiko.RSAKey),
    (ec.EllipticCurvePrivateKey, paramiko.ECDSAKey),
    (ed25519.Ed25519PrivateKey, paramiko.Ed25519Key),
)


def target_host(resource):
    """The host name or address to reset on: RESOURCE URL's host, else the DNS name."""
    url = (resource.get("url") or "").strip()
    if url:
        host = urlsplit(url if "://" in url else f"ssh://{url}").hostname
        if host:
            return host
    return resource["dns_name"]


def loopback_addresses(host, port):
    """The addresses ``host`` resolves to, all loopback; ``RemoteError`` otherwise (nothing is contacted)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise RemoteError(f"{host} does not resolve: {LOOPBACK_ONLY}") from None
    addresses = []
    for _family, _type, _proto, _name, sockaddr in found:
        address = sockaddr[0].split("%")[0]
        if not ipaddress.ip_address(address).is_loopback:
            raise RemoteError(f"{host} resolves to {address}: {LOOPBACK_ONLY}")
        if address not in addresses:
            addresses.append(address)
    if not addresses:
        raise RemoteError(f"{host} does not resolve: {LOOPBACK_ONLY}")
    return addresses


def login_account(store, resource, account, settings):
    """``(resource, account)`` records of the account that logs in."""
    if settings["RESOURCEIDENTIFIER"] == "others":
        login_resource = store.get(RESOURCE, settings["WDRESOURCEID"])
        login = store.get(ACCOUNT, settings["WDACCOUNTID"])
        if login_resource is None or login is None or login["resource_id"] != login_resource["id"]:
            raise RemoteError("the login account configured (WDRESOURCEID, WDACCOUNTID) no longer exists")
        return login_resource, login
    name = settings["REMOTELOGINACCOUNT"]
    if not name:
        return resource, account
    login = account_by_name(store, resource, name)
    if login is None:
        raise RemoteError(f"the login account {name} no longer exists in resource {resource['name']}")
    return resource, login


def login_of(store, settings, login_resource, login):
    """A ``remote_ssh.Login`` for ``login`` per AUTHENTICATION."""
    if settings["AUTHENTICATION"] != "keyauth":
        return Login(login["name"], login["password"])
    associations = [a for a in store.all(SSH_KEY_ASSOCIATION) if a["account_id"] == login["id"]]
    keys = [store.get(SSH_KEY, a["key_id"]) for a in associations]
    keys = [key for key in keys if key is not None]
    if not keys:
        raise RemoteError(
            f"no SSH key is associated with user {login['name']} on resource {login_resource['name']} (keyauth)"
        )
    return Login(login["name"], login["password"], _paramiko_key(keys[0]))


def root_password(store, resource, settings):
    """The password of ROOTACCOUNT for ``su``; empty for ``sudo``."""
    if settings["ELEVATIONTYPE"] != "su":
        return ""
    root = account_by_name(store, resource, settings["ROOTACCOUNT"])
    if root is None:
        raise RemoteError(f"the root account {settings['ROOTACCOUNT']} no longer exists in resource {resource['name']}")
    return root["password"]


def _paramiko_key(key):
    """The key store's private key file (OpenSSH or PEM, encrypted with its passphrase or not) as a paramiko key."""
    content, passphrase = key["private_key"].encode("ascii"), key.get("passphrase", "")
    password = passphrase.encode("utf-8") if passphrase else None
    try:
        if b"-----BEGIN OPENSSH PRIVATE KEY-----" in content:
            private_key = serialization.load_ssh_private_key(content, password)
        else:
            private_key = serialization.load_pem_private_key(content, password)
    except (ValueError, TypeError, UnsupportedAlgorithm):
        raise RemoteError(f"the SSH key {key['name']} cannot be read with its passphrase") from None
    for crypto_type, paramiko_type in _PARAMIKO_KEYS:
        if isinstance(private_key, crypto_type):
            text = private_key.private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.OpenSSH, serialization.NoEncryption()
            ).decode("ascii")
            return paramiko_type.from_private_key(io.StringIO(text))
    raise RemoteError(f"the SSH key {key['name']} is of type {key['type']}, which paramiko cannot log in with")
