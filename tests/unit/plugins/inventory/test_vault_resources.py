# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""credvault.vault.vault_resources: hosts, groups, host variables, filters, secrets left out, the cache."""

from __future__ import annotations

import json

import pytest
from ansible.errors import AnsibleError, AnsibleParserError

from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultAPIError, VaultConnectionError
from ansible_collections.credvault.vault.plugins.plugin_utils._resource_inventory import is_secret_label

TOKEN = "TOKEN-SECRET-4411"
SECRETS = ("Custom-Pw-Value-1!", "Api-Token-Value-2", "Ssh-Key-Value-3", "Db-Seed-Value-4")
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
    ]
    return dict(
        resource,
        **{
            "RESOURCE OWNER": "admin",
            "RESOURCE URL": "https://ops:%s@%s/console" % (SECRETS[0], resource["RESOURCE NAME"]),
            "PASSWORD POLICY": "Strong",
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


def test_host_variables_are_prefixed_fields_custom_fields_and_account_names(inventory):
    variables = host_vars(inventory())["web-01.example.com"]
    assert variables["credvault_resource_name"] == "web-01"
    assert variables["credvault_resource_id"] == "1"
    assert variables["credvault_resource_type"] == "Linux"
    assert variables["credvault_owner"] == "admin"
    assert variables["credvault_password_policy"] == "Strong"
    assert variables["credvault_resource_url"] == "https://web-01/console"
    assert variables["credvault_custom_fields"] == {"Environment": "production"}
    assert variables["credvault_accounts"] == ["deploy", "root"]
    assert variables["credvault_resource_groups"] == ["Web Servers"]


def test_no_secret_in_any_host_variable(inventory):
    dumped = json.dumps(host_vars(inventory()))
    assert [secret for secret in SECRETS + (TOKEN,) if secret in dumped] == []
    assert "*****" not in dumped


@pytest.mark.parametrize(
    "label",
    [
        "Password",
        "root_password",
        "DB Passwd",
        "Passphrase",
        "Client Secret",
        "apiKey",
        "SSH key",
        "PIN",
        "totp",
        "otpSeed",
        "Credentials",
        "privateKey",
        "pwd",
        "pass",
    ],
)
def test_labels_that_name_a_secret(label):
    assert is_secret_label(label)


@pytest.mark.parametrize(
    "label", ["Environment", "Keyboard layout", "Monkey", "Passenger count", "Owner team", "Topic"]
)
def test_labels_that_name_no_secret(label):
    assert not is_secret_label(label)


def test_a_password_typed_field_is_left_out_whatever_its_label(inventory, vault):
    vault.answers["get_account_list"] = lambda path, details, query: {
        "RESOURCE NAME": "web-01",
        "CUSTOM FIELD": [custom("Notes", SECRETS[0], kind="password")],
    }
    variables = host_vars(inventory(details=True))["web-01.example.com"]
    assert variables["credvault_custom_fields"] == {}


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
        compose={"ansible_user": "'deploy' if 'deploy' in credvault_accounts else 'root'"},
        keyed_groups=[{"key": "credvault_custom_fields.Environment", "prefix": "env"}],
        groups={"windows": "credvault_resource_type == 'Windows Server'"},
    )
    assert host_vars(data)["db-01"]["ansible_user"] == "deploy"
    assert members(data, "env_production") == ["web-01.example.com"]
    assert members(data, "env_staging") == ["db-01", "web-02.example.com"]
    assert members(data, "windows") == ["db-01"]


def test_cache_hit_makes_no_client_and_holds_no_secret(inventory, vault, tmp_path):
    cache = {"cache": True, "cache_plugin": "ansible.builtin.jsonfile", "cache_connection": str(tmp_path / "cache")}
    first = inventory(**cache)
    assert len(vault.clients) == 1
    second = inventory(**cache)
    assert len(vault.clients) == 1
    assert host_vars(second) == host_vars(first)
    assert members(second, "vault_group_canary") == ["web-02.example.com"]
    stored = "".join(path.read_text() for path in (tmp_path / "cache").iterdir())
    assert "web-01.example.com" in stored
    assert [secret for secret in SECRETS + (TOKEN,) if secret in stored] == []


def test_cache_refreshed_when_asked_or_settings_change(inventory, vault, tmp_path):
    cache = {"cache": True, "cache_plugin": "ansible.builtin.jsonfile", "cache_connection": str(tmp_path / "cache")}
    inventory(**cache)
    inventory(use_cache=False, **cache)  # ansible-inventory --flush-cache
    assert len(vault.clients) == 2
    assert sorted(inventory(filters={"types": ["linux"]}, **cache).hosts) == [
        "web-01.example.com",
        "web-02.example.com",
    ]
    assert len(vault.clients) == 3


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
