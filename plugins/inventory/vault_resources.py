# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
name: vault_resources
short_description: Hosts from the credential vault's resources
version_added: 0.4.0
description:
  - Makes one host of each resource the token sees, named by its DNS name, else by its resource name
    (O(hostname_source)).
  - Groups each host by its resource type, as C(vault_type_<type>), and by each resource group it is in, as
    C(vault_group_<group name>). Names are lowercased and every character other than C(a-z), C(0-9) and C(_)
    becomes C(_) (type C(Windows Server) is group C(vault_type_windows_server)); names that come out the same
    share one group.
  - Host variables (named with O(prefix)) hold the resource's fields C(resource_id), C(resource_name),
    C(resource_type), C(description), C(dns_name) (with or without O(details)), C(account_count) and, with
    O(details), C(password_policy) (the policy's name), C(department), C(location), C(resource_url) (without any
    user information), C(owner) and C(accounts) (account names); with O(resource_groups), C(resource_groups)
    (group names); with O(custom_fields), C(custom_fields) (label to value, the fields O(custom_fields) allows).
  - Custom fields are opt-in. Without O(custom_fields) none becomes a host variable, and a field whose
    C(CUSTOMFIELDTYPE) is C(Password) never does, whatever O(custom_fields) says. No label can tell a secret from
    a harmless value (C(Passwort), C(Kennwort), C(Mot de passe), C(Contraseña), C(SNMP community) or
    C(Wi-Fi PSK) all name one), so the plugin never guesses from a label.
  - Never in a host variable, the inventory cache or a message - a password, the token, or a custom field whose
    C(CUSTOMFIELDTYPE) is C(Password).
  - "Requests per inventory run: one C(GET RESOURCES), then for each resource the filters O(filters.types) and
    O(filters.name_pattern) keep: one C(GET RESOURCE ACCOUNTLIST) with O(details) (without O(details) too where
    the C(GET RESOURCES) item has no C(DNS NAME), that is in edition A) and one C(GET ASSOCIATED GROUPS) with
    O(resource_groups) or O(filters.groups). So 2N+1 requests for N resources by default, N+1 with one of the
    two off, 1 with both off in edition B (N+1 in edition A); one, C(GET RESOURCES), when the inventory cache
    answers."
  - The configuration file must be named C(*.vault_resources.yml) or C(*.vault_resources.yaml).
  - Connection options are those of the lookups, from the configuration file, the C(CREDVAULT_*) environment
    variables, the section C([credvault_vault]) of C(ansible.cfg) (all but O(auth_token)), or the C(credvault_*)
    variables given as extra vars (C(-e)); an inventory is read before any other variable exists.
author:
  - Credvault Maintainers (@credvault)
options:
  plugin:
    description: The name of this plugin, so that Ansible knows the file is its configuration.
    type: str
    required: true
    choices: [credvault.vault.vault_resources]
  hostname_source:
    description:
      - V(dns_name) names a host by the resource's C(DNS NAME) and, where it is empty or not reported, by its
        C(RESOURCE NAME). Edition A reports C(DNS NAME) in the resource detail only, which is read for it even
        without O(details).
      - V(resource_name) names a host by its C(RESOURCE NAME), which is unique in the vault's organization.
      - Two resources with the same host name (the same DNS name) make one host, from the resource with the lower
        C(RESOURCE ID); each other one is left out with a warning naming it.
    type: str
    choices: [dns_name, resource_name]
    default: dns_name
  prefix:
    description: Prefix of every host variable this plugin sets, so that they do not clash with others.
    type: str
    default: credvault_
  details:
    description:
      - Read each resource's detail (C(GET RESOURCE ACCOUNTLIST), one request per resource) for its owner,
        department, location, URL, password policy, account names and the custom fields O(custom_fields) allows.
      - V(false) keeps to the fields of C(GET RESOURCES) and the DNS name. In edition B that is one request for the
        whole inventory; in edition A, whose C(GET RESOURCES) has no C(DNS NAME), each resource's detail is still
        read, for its C(DNS NAME) only.
    type: bool
    default: true
  custom_fields:
    description:
      - The resource custom fields that become the host variable C(custom_fields) (label to value); none when
        empty, the default.
      - Each item is a label or a shell-style wildcard pattern (C(*), C(?), C([...]); Python's C(fnmatch)),
        matched against the whole label with case ignored. V(Environment) allows the field labelled
        C(Environment) (or C(ENVIRONMENT)), V(Rack*) allows C(Rack) and C(Rack Unit), V(*) allows every field.
        A C([) in a label is written C([[]).
      - A field whose C(CUSTOMFIELDTYPE) is C(Password) is never allowed, whatever this list says.
      - A Character field holds whatever was typed into it, secrets too, under any label; name the fields that
        hold no secret rather than a wide pattern such as V(*).
      - Read from each resource's detail, so it needs O(details).
    type: list
    elements: str
    default: []
  resource_groups:
    description:
      - Read each resource's groups (C(GET ASSOCIATED GROUPS), A 12000 / B 5400, one request per resource) for the
        C(vault_group_*) groups and the C(resource_groups) variable.
      - When the vault lacks the call, the inventory has no C(vault_group_*) groups, with a warning.
    type: bool
    default: true
  filters:
    description: Which resources become hosts. A resource must pass every filter given.
    type: dict
    default: {}
    suboptions:
      types:
        description: Resource types (C(RESOURCE TYPE), any case) to keep; all when empty.
        type: list
        elements: str
        default: []
      groups:
        description:
          - Names of resource groups; keeps the resources in at least one of them; all when empty.
          - Reads the groups of every resource the other filters keep, even with O(resource_groups=false).
        type: list
        elements: str
        default: []
      name_pattern:
        description:
          - A Python regular expression searched (C(re.search), not a glob) in the resource name; anchor it with
            C(^) and C($) to match the whole name.
        type: str
  concurrency:
    description: How many of the per-resource requests run at once, over as many connections; from V(1) to V(64).
    type: int
    default: 8
extends_documentation_fragment:
  - ansible.builtin.constructed
  - ansible.builtin.inventory_cache
  - credvault.vault.connection
  - credvault.vault.connection.plugins
notes:
  - The inventory cache holds the host variables above and nothing else of the vault's answers. Its key is made of
    the configuration file's path, O(url), O(org_name), O(filters), O(details), O(resource_groups),
    O(custom_fields) and who asks - a sha256 of O(url), O(org_name) and the token (O(auth_token), or the content
    of O(auth_token_file)), never the token itself - so that what one token saw is never what another token gets.
  - Before the inventory cache answers, one C(GET RESOURCES) asks the vault whether it accepts the token; a token it
    refuses (revoked, its user deleted or locked) or a vault it cannot reach fails the inventory as without a
    cache. That request costs what the first request of an uncached run does (measured on the simulator with 300
    resources, a new TLS connection and a 35 kB answer, 43 ms median; see R(the inventory guide,ansible_collections.credvault.vault.docsite.guide_inventory)).
  - The cache files are written 0600 (a new file renamed over the old one), whatever the cache plugin would do. So
    the cache plugin must be a file cache plugin such as C(ansible.builtin.jsonfile), or C(ansible.builtin.memory);
    one that keeps the inventory elsewhere (redis, memcached, mongodb) is refused with a message naming it.
  - A failure reads C(vault_resources) and the client's message, which never holds the token.
"""

EXAMPLES = r"""
# test.vault_resources.yml: the connection from CREDVAULT_URL, CREDVAULT_AUTH_TOKEN and CREDVAULT_CA_PATH.
# Cached with ANSIBLE_INVENTORY_CACHE=true, ANSIBLE_INVENTORY_CACHE_PLUGIN=ansible.builtin.jsonfile and
# ANSIBLE_INVENTORY_CACHE_CONNECTION=<directory>, or the same options (cache, cache_plugin...) in the file.
plugin: credvault.vault.vault_resources
filters:
  types: [Linux, Windows, MS SQL server]
  name_pattern: "^it-inv-"
custom_fields: [Environment]
keyed_groups:
  - key: credvault_custom_fields.Environment | default('unset')
    prefix: env
compose:
  ansible_user: "'deploy' if 'deploy' in credvault_accounts else 'root'"
"""

import hashlib
import json
import re

from ansible.errors import AnsibleError, AnsibleOptionsError, AnsibleParserError
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable, Constructable
from ansible.utils.display import Display

from ansible_collections.credvault.vault.plugins.module_utils._client import HAS_REQUESTS
from ansible_collections.credvault.vault.plugins.module_utils._errors import VaultError
from ansible_collections.credvault.vault.plugins.module_utils._options import (
    CONNECTION_OPTIONS,
    client_from_options,
    connection_secrets,
    with_auth_token,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._compat import (
    is_missing_required_option,
    option_error_message,
    register_secrets,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._id_cache import identity
from ansible_collections.credvault.vault.plugins.plugin_utils._inventory_cache import UnprotectedCache, keep_private
from ansible_collections.credvault.vault.plugins.plugin_utils._lookup import blank_env_unset, worker_pool
from ansible_collections.credvault.vault.plugins.plugin_utils._resource_inventory import (
    check_token,
    group_name,
    host_name,
    label_matcher,
    read_resources,
)

display = Display()
PLUGIN = "vault_resources"
CONCURRENCY = (1, 64)


class InventoryModule(BaseInventoryPlugin, Constructable, Cacheable):
    NAME = "credvault.vault.vault_resources"

    def verify_file(self, path):
        """Only files named ``*.vault_resources.yml`` or ``*.vault_resources.yaml``."""
        return super().verify_file(path) and path.endswith(("vault_resources.yml", "vault_resources.yaml"))

    def parse(self, inventory, loader, path, cache=True):
        super().parse(inventory, loader, path, cache)
        self._load_options(path)
        cache_key = None
        if self.get_option("cache"):
            try:
                keep_private(self._cache, lambda message: display.warning("%s: %s" % (PLUGIN, message)))
            except UnprotectedCache as exc:
                raise AnsibleParserError("%s: %s" % (PLUGIN, exc)) from None
            cache_key = self._cache_key(path)
        cached = None
        if cache_key and cache:
            try:
                cached = self._cache[cache_key]
            except KeyError:
                pass
        resources = self._read(cached)
        if cache_key and cached is None:
            self._cache[cache_key] = resources
        self._populate(resources)

    def _load_options(self, path):
        """Options from the file, env, ini and extra vars; a blank CREDVAULT_* variable counts as unset."""
        with blank_env_unset(["CREDVAULT_%s" % name.upper() for name in CONNECTION_OPTIONS]):
            try:
                self._read_config_data(path)
            except AnsibleError as exc:
                if is_missing_required_option(exc):
                    raise AnsibleParserError(
                        "%s: %s; set url and auth_token (or auth_token_file) in the file, with CREDVAULT_URL and "
                        "CREDVAULT_AUTH_TOKEN (or CREDVAULT_AUTH_TOKEN_FILE), or as the extra vars credvault_url and "
                        "credvault_auth_token (or credvault_auth_token_file)" % (PLUGIN, exc.args[0])
                    ) from None
                if not isinstance(exc, AnsibleOptionsError):
                    raise
                raise AnsibleParserError("%s: %s" % (PLUGIN, option_error_message(exc))) from None
        try:
            self._connection_option = with_auth_token(self.get_option)  # reads auth_token_file, once per parse
        except VaultError as exc:
            raise AnsibleParserError("%s: %s" % (PLUGIN, exc)) from None
        register_secrets(connection_secrets(self._connection_option))  # not `secret: true` in its docs: see _compat
        if self.get_option("custom_fields") and not self.get_option("details"):
            raise AnsibleParserError(
                "%s: custom_fields are read from each resource's detail; set details: true (the default) or leave "
                "custom_fields empty" % PLUGIN
            )
        lowest, highest = CONCURRENCY
        if not lowest <= self.get_option("concurrency") <= highest:
            raise AnsibleParserError("%s: concurrency must be from %d to %d" % (PLUGIN, lowest, highest))
        if not HAS_REQUESTS:
            raise AnsibleParserError("%s: the Python library 'requests' is required on the controller" % PLUGIN)

    def _cache_key(self, path):
        """The file's path, what the cached resources depend on and who asks (``identity``: never the token)."""
        settings = {
            name: self.get_option(name)
            for name in ("url", "org_name", "filters", "details", "resource_groups", "custom_fields")
        }
        settings["identity"] = identity(*map(self._connection_option, ("url", "org_name", "auth_token")))
        digest = hashlib.sha256(json.dumps(settings, sort_keys=True, default=str).encode()).hexdigest()
        return "%s_%s" % (self.get_cache_key(path), digest[:32])

    def _name_pattern(self):
        pattern = self.get_option("filters").get("name_pattern")
        if pattern is None:
            return None
        try:
            return re.compile(pattern)
        except re.error as exc:
            raise AnsibleParserError("%s: filters.name_pattern is not a regular expression: %s" % (PLUGIN, exc))

    def _read(self, cached):
        """``cached`` once the vault accepts the token (``check_token``), else the host variables of every
        resource kept, read through one client."""
        name_pattern = self._name_pattern()
        if not self.get_option("validate_certs"):
            display.warning("%s: validate_certs is false, so the vault's TLS certificate is not verified" % PLUGIN)
        try:
            client = client_from_options(self._connection_option)
        except VaultError as exc:
            raise AnsibleParserError("%s: %s" % (PLUGIN, exc)) from None
        try:
            if cached is not None:
                check_token(client)
                return cached
            return self._fetch(client, name_pattern)
        except VaultError as exc:
            raise AnsibleError("%s: %s" % (PLUGIN, exc)) from None
        finally:
            client.close()

    def _fetch(self, client, name_pattern):
        filters = self.get_option("filters")
        allowed = self.get_option("custom_fields")
        workers = self.get_option("concurrency")
        if workers > 1:
            client.size_pool(workers)
        with worker_pool(workers) as run_all:
            resources, warning = read_resources(
                client,
                run_all,
                types=filters.get("types"),
                name_pattern=name_pattern,
                groups=filters.get("groups"),
                details=self.get_option("details"),
                resource_groups=self.get_option("resource_groups"),
                custom_fields=label_matcher(allowed) if allowed else None,
            )
        if warning:
            display.warning("%s: %s" % (PLUGIN, warning))
        return resources

    def _populate(self, resources):
        prefix, strict = self.get_option("prefix"), self.get_option("strict")
        owners = {}
        for facts in resources:
            host = host_name(facts, self.get_option("hostname_source"))
            if host in owners:
                display.warning(
                    "%s: resources %s and %s have the same host name %s; the host is made of %s only"
                    % (PLUGIN, owners[host], facts["resource_name"], host, owners[host])
                )
                continue
            owners[host] = facts["resource_name"]
            self.inventory.add_host(host)
            for name, value in facts.items():
                self.inventory.set_variable(host, prefix + name, value)
            self._add_to_group("vault_type_", facts.get("resource_type", ""), host)
            for group in facts.get("resource_groups") or []:
                self._add_to_group("vault_group_", group, host)
            host_vars = self.inventory.get_host(host).get_vars()
            self._set_composite_vars(self.get_option("compose"), host_vars, host, strict=strict)
            self._add_host_to_composed_groups(self.get_option("groups"), host_vars, host, strict=strict)
            self._add_host_to_keyed_groups(self.get_option("keyed_groups"), host_vars, host, strict=strict)

    def _add_to_group(self, prefix, name, host):
        if name.strip():
            group = self.inventory.add_group(group_name(prefix, name))
            self.inventory.add_child(group, host)
