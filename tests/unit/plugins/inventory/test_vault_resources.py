# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""credvault.vault.vault_resources: hosts, groups, host variables, filters, custom fields only as allowed, the cache
(per token, the token checked before a cached answer, files 0600)."""

from __future__ import annotations

import json
import os
import stat

import pytest
from ansible.errors import AnsibleError, AnsibleParserError

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultConnectionError
from ansible_collections.credvault.vault.tests.unit.core_compat import MEMORY_CACHE_PLUGIN

TOKEN = "TOKEN-SECRET-4411"
OTHER_TOKEN = "TOKEN-SECRET-5522"
SECRETS = ("Custom-Pw-Value-1!", "Api-Token-Value-2", "Ssh-Key-Value-3", "Db-Seed-Value-4")
# Character fields that hold a secret under a label no English word list knows (issue 23), label to value.
FOREIGN_SECRETS = {
    "Passwort": "Geheim-Wert-1",
    "Kennwort": "Geheim-Wert-2",
    "Mot de passe": "Valeur-Secrete-3",
    "Contraseña": "Valor-Secreto-4",
    "SNMP community": "Snmp-Community-5",
    "Wi-Fi PSK": "Wifi-Psk-6",
}
RESOURCES = [
    {"RESOURCE ID": "3", "RESOURCE NAME": "db-01", "RESOURCE TYPE": "Windows Server", "DNS NAME": ""},
    {"RESOURCE ID": "1", "RESOURCE NAME": "web-01", "RESOURCE TYPE": "Linux", "DNS NAME": "web-01.example.com"},
    {"RESOURCE ID": "2", "RESOURCE NAME": "web-02", "RESOURCE TYPE": "linux", "DNS NAME": "web-02.example.com"},
]
GROUPS = {"1": ["Web Servers"], "2": ["Web Servers", "Canary"], "3": []}


def custom(label, value, kind="Character"):
    return {"CUSTOMFIELDLABEL": label, "CUSTOMFIELDVALUE": value, "CUSTOMFIELDTYPE": kind}


def detail(path, details, query):
    resource = next(item for item in RESOURCES if item["RESOURCE ID"] == path["resource_id"])
    fields = [
        custom("Environment", "production" if resource["RESOURCE ID"] == "1" else "staging"),
        custom("Console", SECRETS[0], kind="Password"),
        custom("API Token", SECRETS[1]),
        custom("SSH key", SECRETS[2]),
        custom("dbSeed", SECRETS[3]),
        custom("Rack Unit", "U42"),
    ] + [custom(label, value) for label, value in FOREIGN_SECRETS.items()]
    return dict(
        resource,
        **{
            "RESOURCE OWNER": "admin",
            "RESOURCE URL": "https://ops:%s@%s/console" % (SECRETS[0], resource["RESOURCE NAME"]),
            "PASSWORD POLICY": "Strong",
            "DEPARTMENT": "Operations",
            "LOCATION": "Paris DC",
            "CUSTOM FIELD": fields,
            "ACCOUNT LIST": [{"ACCOUNT NAME": "root", "PASSWORD STATUS": "*****"}, {"ACCOUNT NAME": "deploy"}],
        },
    )


def associated_groups(path, details, query):
    return {"ASSOCIATED GROUPS": [{"GROUP ID": 7, "GROUP NAME": name} for name in GROUPS[path["resource_id"]]]}


@pytest.fixture
def inventory(vault, monkeypatch, tmp_path):
    """``inventory(**config)``: parse a config file with ``config`` against the scripted vault; the inventory."""
    from ansible.inventory.data import InventoryData
    from ansible.parsing.dataloader import DataLoader
    from ansible.plugins.loader import inventory_loader

    from ansible_collections.credvault.vault.plugins.inventory import vault_resources

    monkeypatch.setattr(vault_resources, "client_from_options", vault.open)
    vault.answers.update(get_resources=RESOURCES, get_account_list=detail, get_associated_groups=associated_groups)

    def parse(use_cache=True, **config):
        path = tmp_path / "test.vault_resources.yml"
        path.write_text(
            json.dumps(
                dict(
                    {
                        "plugin": "credvault.vault.vault_resources",
                        "auth_token": TOKEN,
                        "url": "https://vault.example:7272",
                    },
                    **config,
                )
            )
        )
        plugin = inventory_loader.get("credvault.vault.vault_resources")
        data = InventoryData()
        plugin.parse(data, DataLoader(), str(path), cache=use_cache)
        if getattr(plugin, "_cache", None) is not None:  # as ansible-inventory does after parse()
            plugin.update_cache_if_changed()
        return data

    return parse


def host_vars(data):
    return {name: host.get_vars() for name, host in data.hosts.items()}


def members(data, group):
    return sorted(host.name for host in data.groups[group].get_hosts()) if group in data.groups else []


def calls(vault, key):
    return sorted(path["resource_id"] for called, path, *dummy in vault.calls if called == key)


def test_hosts_are_named_by_dns_name_else_resource_name(inventory):
    assert sorted(inventory().hosts) == ["db-01", "web-01.example.com", "web-02.example.com"]


def test_hosts_named_by_resource_name(inventory):
    assert sorted(inventory(hostname_source="resource_name").hosts) == ["db-01", "web-01", "web-02"]


def test_groups_by_type_and_by_resource_group(inventory):
    data = inventory()
    assert members(data, "vault_type_linux") == ["web-01.example.com", "web-02.example.com"]
    assert members(data, "vault_type_windows_server") == ["db-01"]
    assert members(data, "vault_group_web_servers") == ["web-01.example.com", "web-02.example.com"]
    assert members(data, "vault_group_canary") == ["web-02.example.com"]


def test_host_variables_are_prefixed_fields_account_names_and_groups(inventory):
    variables = host_vars(inventory())["web-01.example.com"]
    assert variables["credvault_resource_name"] == "web-01"
    assert variables["credvault_resource_id"] == "1"
    assert variables["credvault_resource_type"] == "Linux"
    assert variables["credvault_dns_name"] == "web-01.example.com"
    assert variables["credvault_owner"] == "admin"
    assert variables["credvault_password_policy"] == "Strong"
    assert variables["credvault_department"] == "Operations"
    assert variables["credvault_location"] == "Paris DC"
    assert variables["credvault_resource_url"] == "https://web-01/console"
    assert variables["credvault_accounts"] == ["deploy", "root"]
    assert variables["credvault_resource_groups"] == ["Web Servers"]


def test_no_custom_field_without_an_allow_list(inventory):
    variables = host_vars(inventory())
    assert [name for name in variables if "credvault_custom_fields" in variables[name]] == []
    dumped = json.dumps(variables)
    assert [value for value in ("production", "U42", *FOREIGN_SECRETS.values()) if value in dumped] == []


def test_no_secret_in_any_host_variable(inventory):
    dumped = json.dumps(host_vars(inventory(custom_fields=["Environment", "Rack Unit"])))
    assert [secret for secret in SECRETS + tuple(FOREIGN_SECRETS.values()) + (TOKEN,) if secret in dumped] == []
    assert "*****" not in dumped


def test_custom_fields_allowed_by_exact_label_or_wildcard_in_any_case(inventory):
    variables = host_vars(inventory(custom_fields=["environment", "rack *"]))["web-01.example.com"]
    assert variables["credvault_custom_fields"] == {"Environment": "production", "Rack Unit": "U42"}


@pytest.mark.parametrize("label", sorted(FOREIGN_SECRETS))
def test_a_secret_under_any_label_stays_out_unless_allowed(inventory, label):
    dumped = json.dumps(host_vars(inventory(custom_fields=["Environment", "Rack*", "*Seed"])))
    assert FOREIGN_SECRETS[label] not in dumped


def test_an_allowed_character_field_is_the_users_choice(inventory):
    variables = host_vars(inventory(custom_fields=["Passwort"]))["db-01"]
    assert variables["credvault_custom_fields"] == {"Passwort": FOREIGN_SECRETS["Passwort"]}


@pytest.mark.parametrize("allowed", [["*"], ["Console"], ["console"], ["C*"]])
def test_a_password_typed_field_never_whatever_the_allow_list(inventory, allowed):
    data = inventory(custom_fields=allowed)
    assert SECRETS[0] not in json.dumps(host_vars(data))
    assert "Console" not in host_vars(data)["db-01"]["credvault_custom_fields"]


def test_password_type_in_any_case(inventory, vault):
    vault.answers["get_account_list"] = lambda path, details, query: {
        "RESOURCE NAME": "web-01",
        "CUSTOM FIELD": [custom("Notes", SECRETS[0], kind=" password ")],
    }
    variables = host_vars(inventory(custom_fields=["Notes"]))["web-01.example.com"]
    assert variables["credvault_custom_fields"] == {}


def test_a_star_allows_every_field_but_password_typed_ones(inventory):
    fields = host_vars(inventory(custom_fields=["*"]))["web-02.example.com"]["credvault_custom_fields"]
    assert sorted(fields) == sorted(["Environment", "API Token", "SSH key", "dbSeed", "Rack Unit", *FOREIGN_SECRETS])


def test_custom_fields_need_details(inventory, vault):
    with pytest.raises(AnsibleParserError, match="custom_fields are read from each resource's detail"):
        inventory(custom_fields=["Environment"], details=False)
    assert vault.calls == []


def test_prefix(inventory):
    variables = host_vars(inventory(prefix="vault_"))["db-01"]
    assert variables["vault_resource_type"] == "Windows Server"
    assert not [name for name in variables if name.startswith("credvault_")]


def test_requests_per_resource(inventory, vault):
    inventory()
    assert [key for key, *dummy in vault.calls].count("get_resources") == 1
    assert calls(vault, "get_account_list") == ["1", "2", "3"]
    assert calls(vault, "get_associated_groups") == ["1", "2", "3"]


def test_without_details_and_groups_one_request(inventory, vault):
    data = inventory(details=False, resource_groups=False)
    assert [key for key, *dummy in vault.calls] == ["get_resources"]
    assert "credvault_custom_fields" not in host_vars(data)["db-01"]
    assert not [group for group in data.groups if group.startswith("vault_group_")]


def test_without_details_the_dns_name_is_read_where_the_list_lacks_it(inventory, vault):
    """Edition A's GET RESOURCES items have no DNS NAME; the detail has it, and only it is taken from there."""
    vault.answers["get_resources"] = [
        {name: value for name, value in item.items() if name != "DNS NAME"} for item in RESOURCES
    ]
    data = inventory(details=False, resource_groups=False)
    assert sorted(data.hosts) == ["db-01", "web-01.example.com", "web-02.example.com"]
    variables = host_vars(data)["web-01.example.com"]
    assert variables["credvault_dns_name"] == "web-01.example.com"
    assert calls(vault, "get_account_list") == ["1", "2", "3"]
    assert not [
        name for name in ("owner", "accounts", "custom_fields", "department") if "credvault_" + name in variables
    ]


def test_filter_by_type_any_case_reads_only_those_kept(inventory, vault):
    data = inventory(filters={"types": ["LINUX"]})
    assert sorted(data.hosts) == ["web-01.example.com", "web-02.example.com"]
    assert calls(vault, "get_account_list") == ["1", "2"]


def test_filter_by_name_pattern_is_a_regular_expression_searched(inventory):
    assert sorted(inventory(filters={"name_pattern": "eb-0[12]$"}).hosts) == [
        "web-01.example.com",
        "web-02.example.com",
    ]
    assert sorted(inventory(filters={"name_pattern": "^db"}).hosts) == ["db-01"]


def test_a_bad_name_pattern_fails(inventory, vault):
    with pytest.raises(AnsibleParserError, match="filters.name_pattern is not a regular expression"):
        inventory(filters={"name_pattern": "web-("})
    assert vault.calls == []


def test_filter_by_group_reads_details_of_members_only(inventory, vault):
    data = inventory(filters={"groups": ["Canary"]}, resource_groups=False)
    assert sorted(data.hosts) == ["web-02.example.com"]
    assert calls(vault, "get_associated_groups") == ["1", "2", "3"]
    assert calls(vault, "get_account_list") == ["2"]


def test_same_host_name_lower_resource_id_wins_with_a_warning(inventory, vault):
    vault.answers["get_resources"] = [dict(item, **{"DNS NAME": "shared.example.com"}) for item in RESOURCES]
    data = inventory(details=False)
    assert list(data.hosts) == ["shared.example.com"]
    assert host_vars(data)["shared.example.com"]["credvault_resource_name"] == "web-01"
    assert [w for w in vault.warnings if "same host name shared.example.com" in w and "web-02" in w]
    assert [w for w in vault.warnings if "same host name" in w and "db-01" in w]


def test_vault_without_associated_groups_warns_and_asks_once(inventory, vault):
    vault.answers["get_associated_groups"] = VaultAPIError("not served", http_status=404)
    data = inventory()
    assert sorted(data.hosts) == ["db-01", "web-01.example.com", "web-02.example.com"]
    assert not [group for group in data.groups if group.startswith("vault_group_")]
    assert calls(vault, "get_associated_groups") == ["1"]
    assert [w for w in vault.warnings if "resource groups are not read" in w]


def test_group_filter_on_a_vault_without_associated_groups_fails(inventory, vault):
    vault.answers["get_associated_groups"] = VaultAPIError("not served", http_status=404)
    with pytest.raises(AnsibleError, match="filters.groups needs the groups of each resource"):
        inventory(filters={"groups": ["Canary"]})


def test_client_error_is_an_ansible_error_without_the_token(inventory, vault):
    vault.answers["get_resources"] = VaultConnectionError("cannot connect to vault.example:7272")
    with pytest.raises(AnsibleError) as caught:
        inventory()
    assert str(caught.value).startswith("vault_resources: cannot connect to vault.example:7272")
    assert TOKEN not in str(caught.value)


def test_missing_url_names_the_ways_to_set_it(inventory, vault):
    with pytest.raises(AnsibleParserError, match="CREDVAULT_URL") as caught:
        inventory(url=None)
    assert TOKEN not in str(caught.value)
    assert vault.clients == []


def test_connection_options_from_environment(inventory, vault, monkeypatch):
    monkeypatch.setenv("CREDVAULT_CA_PATH", "/etc/pki/vault-ca.pem")
    monkeypatch.setenv("CREDVAULT_EDITION", "")
    inventory()
    assert vault.clients[0].options["ca_path"] == "/etc/pki/vault-ca.pem"
    assert vault.clients[0].options["edition"] is None
    assert vault.clients[0].options["auth_token"] == TOKEN


def test_compose_keyed_groups_and_groups(inventory):
    data = inventory(
        custom_fields=["Environment"],
        compose={"ansible_user": "'deploy' if 'deploy' in credvault_accounts else 'root'"},
        keyed_groups=[{"key": "credvault_custom_fields.Environment", "prefix": "env"}],
        groups={"windows": "credvault_resource_type == 'Windows Server'"},
    )
    assert host_vars(data)["db-01"]["ansible_user"] == "deploy"
    assert members(data, "env_production") == ["web-01.example.com"]
    assert members(data, "env_staging") == ["db-01", "web-02.example.com"]
    assert members(data, "windows") == ["db-01"]


def file_cache(tmp_path):
    return {"cache": True, "cache_plugin": "ansible.builtin.jsonfile", "cache_connection": str(tmp_path / "cache")}


def test_cache_hit_costs_one_token_check_and_holds_no_secret(inventory, vault, tmp_path):
    first = inventory(custom_fields=["Environment"], **file_cache(tmp_path))
    assert len(vault.clients) == 1
    second = inventory(custom_fields=["Environment"], **file_cache(tmp_path))
    assert [key for key, *dummy in vault.clients[1].calls] == ["get_resources"]
    assert vault.clients[1].closed
    assert host_vars(second) == host_vars(first)
    assert members(second, "vault_group_canary") == ["web-02.example.com"]
    stored = "".join(path.read_text() for path in (tmp_path / "cache").iterdir())
    assert "web-01.example.com" in stored and "production" in stored
    assert [secret for secret in SECRETS + tuple(FOREIGN_SECRETS.values()) + (TOKEN,) if secret in stored] == []


def test_cache_is_kept_per_token(inventory, vault, tmp_path):
    """A cache an administrator's token filled is not what a Password User's token gets, and back."""
    assert len(inventory(**file_cache(tmp_path)).hosts) == 3
    vault.answers["get_resources"] = [RESOURCES[1]]  # all that the other token sees
    assert sorted(inventory(auth_token=OTHER_TOKEN, **file_cache(tmp_path)).hosts) == ["web-01.example.com"]
    assert calls(vault, "get_account_list") == ["1", "1", "2", "3"]
    assert sorted(inventory(auth_token=OTHER_TOKEN, **file_cache(tmp_path)).hosts) == ["web-01.example.com"]
    assert len(inventory(**file_cache(tmp_path)).hosts) == 3
    assert calls(vault, "get_account_list") == ["1", "1", "2", "3"]
    names = sorted(path.name for path in (tmp_path / "cache").iterdir())
    assert len(names) == 2
    assert not [name for name in names if TOKEN in name or OTHER_TOKEN in name]


def test_cache_is_kept_per_token_read_from_a_file(inventory, vault, tmp_path):
    """Two token files, two tokens: each gets what it saw, as with auth_token (the key holds the file's token)."""
    files = {}
    for name, token in (("admin", TOKEN), ("reader", OTHER_TOKEN)):
        files[name] = tmp_path / name
        files[name].write_text(token + "\n")
        files[name].chmod(0o600)
    assert len(inventory(auth_token=None, auth_token_file=str(files["admin"]), **file_cache(tmp_path)).hosts) == 3
    vault.answers["get_resources"] = [RESOURCES[1]]
    reader = inventory(auth_token=None, auth_token_file=str(files["reader"]), **file_cache(tmp_path))
    assert sorted(reader.hosts) == ["web-01.example.com"]
    assert vault.clients[1].options["auth_token"] == OTHER_TOKEN


def test_a_token_file_others_can_read_fails_the_inventory_naming_it(inventory, vault, tmp_path):
    path = tmp_path / "token"
    path.write_text(TOKEN)
    path.chmod(0o644)
    with pytest.raises(AnsibleParserError) as raised:
        inventory(auth_token=None, auth_token_file=str(path))
    assert "auth_token_file %s can be read or written by others" % path in str(raised.value)
    assert TOKEN not in str(raised.value) and vault.clients == []


def test_cache_is_kept_per_vault_and_organization(inventory, vault, tmp_path):
    inventory(**file_cache(tmp_path))
    inventory(org_name="Ops", **file_cache(tmp_path))
    inventory(url="https://other-vault.example:7272", **file_cache(tmp_path))
    assert calls(vault, "get_account_list") == ["1", "1", "1", "2", "2", "2", "3", "3", "3"]


@pytest.mark.parametrize(
    "refusal",
    [
        VaultAPIError("Authentication failed: the AUTHTOKEN is missing or invalid", http_status=401),
        VaultAPIError("Authentication failed: the user of this AUTHTOKEN is locked"),
        VaultConnectionError("cannot connect to vault.example:7272"),
    ],
)
def test_a_cache_is_never_the_answer_to_a_token_the_vault_does_not_accept(inventory, vault, tmp_path, refusal):
    """The token that filled the cache, revoked or its user locked since: the vault's refusal, not the cache."""
    inventory(**file_cache(tmp_path))
    vault.answers["get_resources"] = refusal
    with pytest.raises(AnsibleError) as caught:
        inventory(**file_cache(tmp_path))
    assert str(caught.value) == "vault_resources: %s" % refusal
    assert TOKEN not in str(caught.value)


@pytest.mark.parametrize("umask", [0o022, 0o002, 0o000])
def test_cache_files_are_written_0600_whatever_the_umask(inventory, vault, tmp_path, umask):
    previous = os.umask(umask)
    try:
        inventory(**file_cache(tmp_path))
        inventory(use_cache=False, **file_cache(tmp_path))  # rewritten over the file
    finally:
        os.umask(previous)
    paths = list((tmp_path / "cache").iterdir())
    assert len(paths) == 1
    assert stat.S_IMODE(paths[0].stat().st_mode) == 0o600


def test_cache_file_prefix_and_timeout_are_kept(inventory, vault, tmp_path):
    inventory(cache_prefix="inv_", cache_timeout=3600, **file_cache(tmp_path))
    inventory(cache_prefix="inv_", cache_timeout=3600, **file_cache(tmp_path))
    (path,) = (tmp_path / "cache").iterdir()
    assert path.name.startswith("inv_") and "credvault.vault.vault_resources_" in path.name
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert calls(vault, "get_account_list") == ["1", "2", "3"]


def test_a_cache_file_that_cannot_be_written_is_a_warning_and_leaves_nothing(inventory, vault, tmp_path, monkeypatch):
    from ansible_collections.credvault.vault.plugins.plugin_utils import _inventory_cache

    def refuse(source, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(_inventory_cache.os, "replace", refuse)
    assert len(inventory(**file_cache(tmp_path)).hosts) == 3
    assert [w for w in vault.warnings if w.startswith("vault_resources: the inventory cache file ")]
    assert [w for w in vault.warnings if w.endswith("could not be written (Permission denied)")]
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_cache_kept_outside_files_is_refused(inventory, vault, monkeypatch):
    """A cache plugin that keeps the inventory elsewhere (redis, memcached, mongodb) cannot be made private."""
    from ansible.plugins import inventory as inventory_plugins
    from ansible.plugins.cache import CachePluginAdjudicator

    class RemoteCache:
        ansible_name = "community.general.redis"
        _persistent = True

    def remote_cache(name, **options):
        adjudicator = CachePluginAdjudicator("ansible.builtin.memory")
        adjudicator._plugin = RemoteCache()
        return adjudicator

    monkeypatch.setattr(inventory_plugins, "get_cache_plugin", remote_cache)
    with pytest.raises(AnsibleParserError) as caught:
        inventory(cache=True, cache_plugin="community.general.redis")
    assert str(caught.value).startswith("vault_resources: the inventory cache plugin community.general.redis ")
    assert "ansible.builtin.jsonfile" in str(caught.value)
    assert vault.calls == []


def test_the_memory_cache_is_accepted(inventory, vault):
    assert len(inventory(cache=True, cache_plugin=MEMORY_CACHE_PLUGIN).hosts) == 3


def test_cache_refreshed_when_asked_or_settings_change(inventory, vault, tmp_path):
    inventory(**file_cache(tmp_path))
    inventory(use_cache=False, **file_cache(tmp_path))  # ansible-inventory --flush-cache
    assert calls(vault, "get_account_list") == ["1", "1", "2", "2", "3", "3"]
    assert sorted(inventory(filters={"types": ["linux"]}, **file_cache(tmp_path)).hosts) == [
        "web-01.example.com",
        "web-02.example.com",
    ]
    assert len(vault.clients) == 3
    fields = host_vars(inventory(custom_fields=["Rack*"], **file_cache(tmp_path)))["db-01"]["credvault_custom_fields"]
    assert fields == {"Rack Unit": "U42"}
    assert len(vault.clients) == 4


@pytest.mark.parametrize(
    "name, accepted",
    [
        ("prod.vault_resources.yml", True),
        ("vault_resources.yaml", True),
        ("prod.yml", False),
        ("prod.vault_resources.json", False),
        ("prod.aws_ec2.yml", False),
    ],
)
def test_verify_file(vault, tmp_path, name, accepted):
    from ansible.plugins.loader import inventory_loader

    path = tmp_path / name
    path.write_text("plugin: credvault.vault.vault_resources\n")
    assert inventory_loader.get("credvault.vault.vault_resources").verify_file(str(path)) is accepted


def test_connection_options_from_extra_vars(inventory, vault, monkeypatch):
    """An inventory is read before any variable but the extra vars (``-e``), which the ``vars`` sources read."""
    from ansible.plugins import inventory as inventory_plugins

    extra = {"credvault_url": "https://other-vault.example:7272", "credvault_org_name": "Ops"}
    monkeypatch.setattr(inventory_plugins, "load_extra_vars", lambda loader: extra)
    inventory(url=None)
    assert vault.clients[0].options["url"] == "https://other-vault.example:7272"
    assert vault.clients[0].options["org_name"] == "Ops"


def test_the_token_is_registered_as_a_secret(inventory, registered):
    inventory()
    assert registered == [TOKEN]
