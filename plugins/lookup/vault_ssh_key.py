# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
name: vault_ssh_key
short_description: Fetch the public key (or, asked explicitly, the private key) of SSH keys of the credential vault
version_added: 0.3.0
description:
  - Returns the public key of each SSH key named, for C(authorized_keys) files, as a list of strings in term order
    (C(POST /exportSSHKey)); with O(private=true) or O(type=private), the private key file instead.
  - All terms of one call share one HTTP session. Each term costs one request to check that the key exists
    (C(GetAllSSHKeys)) and one to export it.
  - A public key needs C(keyExportType), edition B from build 6200. Edition A, and older B builds, export one file,
    the private key, and no public key is derived from it (it may be protected by a passphrase); a public key is
    then refused, before any request when O(edition) and O(build) say so. Whatever was sent, the file the vault
    returns must be of the kind asked for - a public key holding private key material is refused, never returned.
author:
  - Credvault Maintainers (@credvault)
options:
  _terms:
    description:
      - Names of SSH keys (C(keyName)). A list given as a term is flattened, at any depth; anything that is not a
        string is refused.
    type: list
    elements: str
    required: true
  type:
    description:
      - V(public) returns the OpenSSH public key line (without its line end), V(private) the private key file as the
        vault gives it (encrypted when the key has a passphrase). V(private) is sent as C(keyExportType) only when
        O(edition) and O(build) say the vault has it.
    type: str
    choices: [public, private]
    default: public
  private:
    description: V(true) is O(type=private).
    type: bool
    default: false
  default:
    description:
      - Returned, for each key, instead of failing when the vault does not list the key (C(GetAllSSHKeys)); set, it
        wins over O(on_missing).
      - Never returned when the vault refuses the export or the listing (see O(on_denied)), cannot give a public key
        or cannot be reached.
    type: str
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.connection.plugins
  - credvault.vault.lookup_outcomes
  - credvault.vault.run_cache
notes:
  - A missing key and a refusal fail with different messages, with the vault's words; neither contains key material.
    An unknown keyword fails, naming the keywords there are.
  - Lookups do not read C(module_defaults); set the connection options as keywords, C(credvault_*) variables or
    C(CREDVAULT_*) environment variables.
  - Use a private key only in C(no_log) tasks, or only where the value is not printed; to write it to a file use
    M(credvault.vault.vault_ssh_key_export) instead, which never returns it.
seealso:
  - module: credvault.vault.vault_ssh_key_export
"""

EXAMPLES = r"""
- name: Let the deployment key log in to the account of deploy_home
  ansible.builtin.lineinfile:
    path: "{{ deploy_home }}/.ssh/authorized_keys"
    line: "{{ lookup('credvault.vault.vault_ssh_key', 'deploy-key') }}"
    create: true
    mode: "0600"

- name: Public keys of several keys in one call (one session)
  ansible.builtin.set_fact:
    team_keys: "{{ query('credvault.vault.vault_ssh_key', 'deploy-key', 'backup-key') }}"

- name: A key that may not exist yet, with a default (a refusal still fails)
  ansible.builtin.set_fact:
    legacy_key: "{{ lookup('credvault.vault.vault_ssh_key', 'legacy-key', default='') }}"

- name: The private key, asked for explicitly
  ansible.builtin.set_fact:
    deploy_private_key: "{{ lookup('credvault.vault.vault_ssh_key', 'deploy-key', private=true) }}"
  no_log: true
"""

RETURN = r"""
_raw:
  description:
    - One public key line or private key file (or O(default)) per key, in the order of the terms.
    - Without the terms that O(on_missing) or O(on_denied) left out.
  type: list
  elements: str
"""

from functools import partial

from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultError,
    VaultNotFoundError,
    VaultUnsupportedError,
    is_denial,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._key_armor import PRIVATE, PUBLIC
from ansible_collections.credvault.vault.plugins.plugin_utils._lookup import (
    DeniedSecret,
    MissingSecret,
    VaultLookupBase,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._run_cache import SSH_KEY
from ansible_collections.credvault.vault.plugins.plugin_utils._ssh_key_export import export_ssh_key

PLUGIN = "vault_ssh_key"


class LookupModule(VaultLookupBase):
    PLUGIN = PLUGIN

    def run(self, terms, variables=None, **kwargs):
        self.load_options(variables, kwargs)
        names = self.flatten_terms(terms)
        if not names:
            raise AnsibleLookupError("%s: no SSH key given" % PLUGIN)
        export_type = PRIVATE if self.get_option("private") else self.get_option("type")
        found = self.run_cached(
            list(dict.fromkeys(names)),
            lambda cache, name: cache.key(SSH_KEY, self.connection_option, name, export_type),
            partial(self._fetch_all, export_type),
        )
        outcomes = []
        for name in names:
            if name not in found:
                break  # a key before it failed the call
            outcomes.append(found[name])
        keys = self.settle(names, outcomes)
        # A public key is no secret: masking it would hide the authorized_keys lines it is fetched for.
        return self.secrets(keys) if export_type == PRIVATE else keys

    def _fetch_all(self, export_type, names):
        """``{name: key file or AnsibleLookupError}``, up to the first key that fails the call: the keys after it
        are not exported."""
        client = self.open_client()
        outcomes = {}
        try:
            for name in names:
                outcomes[name] = self._fetch(client, name, export_type)
                if self.fails(outcomes[name]):
                    break
        finally:
            client.close()
        return outcomes

    def _fetch(self, client, name, export_type):
        """The key file as text (a public key without its line end, a private key file as it is), or the
        ``AnsibleLookupError`` of the key (``settle`` decides what a ``MissingSecret`` or a ``DeniedSecret`` gives)."""
        try:
            content = export_ssh_key(client, name, export_type)
        except VaultNotFoundError as exc:
            return MissingSecret("%s: not found: %s" % (PLUGIN, exc))
        except (VaultUnsupportedError, VaultAPIError) as exc:
            refused = DeniedSecret if is_denial(exc) else AnsibleLookupError
            return refused("%s: the vault refused the %s key of %s: %s" % (PLUGIN, export_type, name, exc))
        except VaultError as exc:
            return AnsibleLookupError("%s: could not read the %s key of %s: %s" % (PLUGIN, export_type, name, exc))
        text = content.decode("utf-8")
        return text.strip() if export_type == PUBLIC else text
