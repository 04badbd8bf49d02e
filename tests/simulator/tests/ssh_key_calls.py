"""Calls of the SSH and PGP key endpoints (PKI root: top-level name and result, lower-case details)."""

import base64
import hashlib
import io

from conftest import PKI_ROOT

SUCCESS = "Success"
# "SUCCESS in the SSH import, associate and dissociate responses".
UPPER_CASE_SUCCESS = "SUCCESS"


def pki(vault, method, path, **kwargs):
    """The JSON body of an HTTP 200 answer under the PKI root."""
    status, body = vault.call(method, path, root=PKI_ROOT, **kwargs)
    assert status == 200, body
    assert "operation" not in body, body
    return body


def pki_ok(vault, method, path, **kwargs):
    body = pki(vault, method, path, **kwargs)
    assert body["result"]["status"] == SUCCESS, body
    return body


def pki_failed(vault, method, path, message, **kwargs):
    body = pki(vault, method, path, **kwargs)
    assert body["result"] == {"status": "Failed", "message": message}, body
    return body


def unsupported(vault, method, path, **kwargs):
    status, body = vault.call(method, path, root=PKI_ROOT, **kwargs)
    assert status == 404, body
    assert body["operation"]["name"] == "UNSUPPORTED"
    return body


def create_key(vault, name="deploy", key_type="ecdsa", length="256", **details):
    details = {"keyName": name, "keyType": key_type, "length": length, **details}
    return pki_ok(vault, "POST", "/createsshkey", details=details)


def import_key(vault, name, content, passphrase="", **kwargs):
    """The result of addSSHKey with ``content`` as the part ``File``."""
    return pki(
        vault,
        "POST",
        "/addSSHKey",
        details={"keyName": name, "passphrase": passphrase},
        files={"File": (io.BytesIO(content), "id_key")},
        **kwargs,
    )["result"]


def export(vault, name, export_type=None, **kwargs):
    """The raw body of a successful export."""
    details = {"keyName": name} if export_type is None else {"keyName": name, "keyExportType": export_type}
    response = vault.send("POST", "/exportSSHKey", root=PKI_ROOT, details=details, **kwargs)
    assert response.status_code == 200 and response.mimetype != "application/json", response.get_data()
    assert "attachment" in response.headers["Content-Disposition"]
    return response.get_data()


def listed(vault):
    """``{KeyName: item}`` of getAllSSHKeys."""
    body = pki_ok(vault, "GET", "/getAllSSHKeys")
    assert body["totalRows"] == len(body["details"])
    return {item["KeyName"]: item for item in body["details"]}


def md5_fingerprint(public_line):
    """What ``ssh-keygen -l -E md5`` shows, without its ``MD5:`` prefix."""
    digest = hashlib.md5(base64.b64decode(public_line.split()[1])).digest()
    return ":".join(f"{byte:02x}" for byte in digest)


def associate(vault, key="deploy", resource="web01", user="root", path="/associateKey", **kwargs):
    return pki(vault, "POST", path, details={"keyName": key, "resourceName": resource, "userName": user}, **kwargs)
