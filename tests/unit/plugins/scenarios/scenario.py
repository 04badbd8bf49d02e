# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""What a scenario does to a vault of ``conftest.Vaults``: run a module with the vault's connection, read the
simulator's request log and its admin endpoints (``/__simulator/...``, as the integration suite's simulator_api
lookup does)."""

from __future__ import annotations

import json

import requests

from ansible_collections.credvault.vault.tests.unit.plugins.faults.harness import run_module


def run(vault, module, check_mode=False, **args):
    """Module ``module`` run with ``args`` and the vault's connection: its result as the controller takes it in."""
    return run_module(module, dict(vault.connection, **args), check_mode=check_mode)


def writes(vault):
    """The requests the vault served since its log was last forgotten that are not GET, as (method, operation)."""
    return [(entry["method"], entry["operation"]) for entry in vault.requests if entry["method"] != "GET"]


def sim_api(vault, method, path, body=None, token=None, form=None):
    """One request to the simulator (``body`` as JSON, or ``form`` as form fields) as the admin or ``token``; the
    decoded answer."""
    answer = requests.request(
        method,
        vault.connection["url"] + path,
        json=body,
        data=form,
        headers={"AUTHTOKEN": token or vault.connection["auth_token"]},
        verify=vault.connection["ca_path"],
        timeout=30,
    )
    answer.raise_for_status()
    return answer.json() if answer.content else None


def api_user(vault, name):
    """The token of a new Password User API user ``name`` (POST /restapi/json/v1/user, as setup_simulator's
    sim_user lookup makes one)."""
    details = {"USERNAME": name, "ROLE": "Password User", "ISAPIUSER": "true"}
    form = {"INPUT_DATA": json.dumps({"operation": {"Details": details}})}
    answer = sim_api(vault, "POST", "/restapi/json/v1/user", form=form)
    return answer["operation"]["Details"]["AUTHTOKEN"]
