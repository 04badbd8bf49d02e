# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Simulators and accounts for the plugin's tests.

``make awx-plugin-check`` runs these tests under tests/utils/with_simulators.py (profiles ``default``, ``client_cert`` and
``strict``), with the collection's copy and the plugin's ``src`` on PYTHONPATH. Each session makes its own
resources (names with a random suffix), so the tests can run twice against the same simulators.
"""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import pytest

from ansible_collections.credvault.vault.plugins.module_utils._client import VaultClient

PASSWORD = "Awx-Pl-pw-4711!"
TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"


@pytest.fixture(scope="session")
def simulators():
    """Every profile's ``{"url", "token", "ca_path", "edition", "build"}``."""
    path = os.environ.get("CREDVAULT_SIMULATORS_FILE")
    if not path:
        pytest.fail("no simulators: run these tests with `make awx-plugin-check`")
    return json.loads(Path(path).read_text())["credvault_simulators"]


def source_inputs(simulator, **overrides):
    """The source credential's inputs for ``simulator``, the CA given as text as AWX gives it."""
    inputs = {
        "url": simulator["url"],
        "auth_token": simulator["token"],
        "ca_cert": Path(simulator["ca_path"]).read_text(),
        "validate_certs": True,
    }
    inputs.update(overrides)
    return inputs


def _admin(simulator):
    return VaultClient(url=simulator["url"], auth_token=simulator["token"], ca_path=simulator["ca_path"])


def create_resource(client, name):
    client.call(
        "create_resource",
        details={
            "RESOURCENAME": name,
            "ACCOUNTNAME": "root",
            "RESOURCETYPE": "Linux",
            "PASSWORD": PASSWORD,
            "OWNERNAME": "admin",
        },
    )
    ids = client.call("get_resource_account_ids", query={"RESOURCENAME": name, "ACCOUNTNAME": "root"}).details_dict()
    return {"resource_id": str(ids["RESOURCEID"]), "account_id": str(ids["ACCOUNTID"])}


@pytest.fixture(scope="session")
def vault(simulators):
    """Resource names on the ``default`` (``plain`` and ``with_totp``) and ``strict`` (``strict``) simulators, and
    the token of a Password User who owns nothing (``password_user_token``)."""
    suffix = uuid.uuid4().hex[:8]
    names = {"plain": "awx-plain-" + suffix, "with_totp": "awx-totp-" + suffix, "strict": "awx-strict-" + suffix}
    admin, strict_admin = _admin(simulators["default"]), _admin(simulators["strict"])
    try:
        create_resource(admin, names["plain"])
        ids = create_resource(admin, names["with_totp"])
        admin.call("edit_account", path=ids, details={"ACCOUNTNAME": "root", "TOTP_SECRET": TOTP_SECRET})
        create_resource(strict_admin, names["strict"])
        user = {"USERNAME": "awx-user-" + suffix, "ROLE": "Password User", "ISAPIUSER": "true"}
        user["EMAIL"] = "awx-%s@example.com" % suffix
        names["password_user_token"] = admin.call("create_api_user", details=user).details_dict()["AUTHTOKEN"]
    finally:
        admin.close()
        strict_admin.close()
    return names
