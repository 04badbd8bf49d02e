# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A scripted vault's accounts for the vault_password tests: answers to the name resolution calls."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError

CONNECTION = {"url": "https://vault.example:7272", "auth_token": "TOKEN-SECRET-78"}
# resource -> account -> (account id, password); resource ids are the resource names.
ACCOUNTS = {
    "web": {"root": ("11", "Pw-Web-Root-1!"), "app": ("12", "Pw-Web-App-2!")},
    "db": {"root": ("21", "Pw-Db-Root-3!")},
}
PASSWORDS = {account_id: password for accounts in ACCOUNTS.values() for account_id, password in accounts.values()}


def account_ids(path, details, query):
    account = ACCOUNTS.get(query["RESOURCENAME"], {}).get(query["ACCOUNTNAME"])
    if account is None:
        return VaultAPIError("GET_RESOURCEACCOUNTID failed: not found", operation="GET_RESOURCEACCOUNTID")
    return {"RESOURCEID": query["RESOURCENAME"], "ACCOUNTID": account[0]}


def resource_id(path, details, query):
    if path["resource_name"] in ACCOUNTS:
        return {"RESOURCEID": path["resource_name"]}
    return VaultAPIError("GET_RESOURCEID failed", operation="GET_RESOURCEID")


def account_list(path, details, query):
    return {
        "ACCOUNT LIST": [
            {"ACCOUNT NAME": name, "ACCOUNT ID": ids[0]} for name, ids in ACCOUNTS[path["resource_id"]].items()
        ]
    }


def password(path, details, query):
    if path["account_id"] not in PASSWORDS:
        return VaultAPIError("GET PASSWORD failed: Account with ID %s does not exist" % path["account_id"])
    return {"PASSWORD": PASSWORDS[path["account_id"]]}


ANSWERS = {
    "get_resource_account_ids": account_ids,
    "get_resource_id": resource_id,
    "get_resources": [],
    "get_account_list": account_list,
    "get_password": password,
    "get_totp": {"TOTP": "123456"},
}
