# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
name: vault_password
short_description: Fetch account passwords and TOTP codes from the credential vault
version_added: 0.1.0
description:
  - Returns the password (or the current TOTP code) of each account named, as a list of strings in term order.
  - All terms of one call share one HTTP session. Each term costs one request to resolve the names to ids
    (C(GET_RESOURCEACCOUNTID)) and one to fetch the secret.
author:
  - Credvault Maintainers (@credvault)
options:
  _terms:
    description:
      - Accounts as V(RESOURCE/ACCOUNT), split at the first C(/).
      - A list given as a term is flattened, at any depth; anything that is not a string is refused.
      - For a resource name that contains C(/), use O(resource) and O(account) instead.
    type: list
    elements: str
    required: false
  resource:
    description: Name of the resource, instead of a term. Used together with O(account).
    type: str
  account:
    description: Name of the account, instead of a term. Used together with O(resource).
    type: str
  field:
    description: V(password) fetches the password (C(GET PASSWORD)); V(totp) the current TOTP code (C(FETCH_CURRENT_TOTP),
      edition A from build 12430).
    type: str
    choices: [password, totp]
    default: password
  default:
    description:
      - Returned, for each account, instead of failing when the account or its resource does not exist (or the token
        cannot see it).
      - Never returned when the vault refuses the retrieval (no access, reason or ticket missing), when the vault has
        no TOTP, or when it cannot be reached; those always fail.
      - Without O(default), a missing account or resource fails.
    type: str
extends_documentation_fragment:
  - credvault.vault.authorization
  - credvault.vault.connection
  - credvault.vault.connection.plugins
notes:
  - A missing resource or account and a refused retrieval (reason or ticket missing, no access) fail with different
    messages; neither contains the secret. An unknown keyword fails, naming the keywords there are.
  - Lookups do not read C(module_defaults); set the connection options as keywords, C(credvault_*) variables or
    C(CREDVAULT_*) environment variables.
  - Use the lookup in C(no_log) tasks, or only where the value is not printed. C(no_log) hides the task's result;
    ansible-core 2.19 still prints a failing lookup's message, which never contains a secret.
"""

EXAMPLES = r"""
- name: Use a password in a task without showing it
  ansible.builtin.set_fact:
    deploy_password: "{{ lookup('credvault.vault.vault_password', 'web-01/deploy', reason='Release 4.2') }}"
  no_log: true

- name: A TOTP code
  ansible.builtin.set_fact:
    console_code: "{{ lookup('credvault.vault.vault_password', 'web-01/console', field='totp') }}"
  no_log: true

- name: Names containing a slash, with the reason and ticket the vault demands
  ansible.builtin.set_fact:
    db_password: "{{ lookup('credvault.vault.vault_password', resource='db/primary', account='app',
                            reason='Migration', ticket_id='CHG-1234') }}"
  no_log: true

- name: Several accounts in one call (one session)
  ansible.builtin.set_fact:
    passwords: "{{ query('credvault.vault.vault_password', 'web-01/root', 'web-02/root') }}"
  no_log: true

- name: Accounts from a list variable (lists are flattened)
  ansible.builtin.set_fact:
    root_passwords: "{{ query('credvault.vault.vault_password', web_root_accounts) }}"
  vars:
    web_root_accounts: [web-01/root, web-02/root]
  no_log: true

- name: An account that may not exist yet, with a default (a refusal still fails)
  ansible.builtin.set_fact:
    legacy_password: "{{ lookup('credvault.vault.vault_password', 'web-01/legacy', default='') }}"
  no_log: true
"""

RETURN = r"""
_raw:
  description: One password or TOTP code (or O(default)) per account, in the order of the terms.
  type: list
  elements: str
"""

from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils import _account
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultError,
    VaultNotFoundError,
    VaultUnsupportedError,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._lookup import VaultLookupBase

PLUGIN = "vault_password"


def split_term(term):
    resource, sep, account = term.partition("/")
    if not sep or not resource or not account:
        raise AnsibleLookupError(
            "%s: %r is not RESOURCE/ACCOUNT; for names containing '/' use the resource= and "
            "account= keywords" % (PLUGIN, str(term))
        )
    return resource, account


class LookupModule(VaultLookupBase):
    PLUGIN = PLUGIN

    def run(self, terms, variables=None, **kwargs):
        self.load_options(variables, kwargs)
        names = self._names(self.flatten_terms(terms))
        client = self.open_client()
        try:
            return [self._fetch(client, resource, account) for resource, account in names]
        finally:
            client.close()

    def _names(self, terms):
        resource, account = self.get_option("resource"), self.get_option("account")
        if resource or account:
            if terms or not (resource and account):
                raise AnsibleLookupError(
                    "%s: give either terms RESOURCE/ACCOUNT, or both resource= and account= without terms" % PLUGIN
                )
            return [(resource, account)]
        if not terms:
            raise AnsibleLookupError("%s: no account given" % PLUGIN)
        return [split_term(term) for term in terms]

    def _fetch(self, client, resource, account):
        label = "%s/%s" % (resource, account)
        try:
            ref = _account.require_account(client, resource, account)
        except VaultNotFoundError as exc:
            if self.get_option("default") is not None:
                return self.get_option("default")
            raise AnsibleLookupError("%s: not found: %s" % (PLUGIN, exc)) from None
        except VaultError as exc:
            raise AnsibleLookupError("%s: could not look up %s: %s" % (PLUGIN, label, exc)) from None
        return self._read(client, ref)

    def _read(self, client, ref):
        """The password or TOTP code (``field``); a vault without TOTP, a refusal and other failures say which."""
        field = self.get_option("field")
        try:
            if field == "totp":
                return _account.get_totp(client, ref)
            return _account.get_password(client, ref, self.get_option("reason"), self.get_option("ticket_id"))
        except VaultUnsupportedError as exc:
            raise AnsibleLookupError(
                "%s: the %s of %s is not available: %s" % (PLUGIN, field, ref.label, exc)
            ) from None
        except VaultAPIError as exc:
            raise AnsibleLookupError(
                "%s: the vault refused the %s of %s: %s" % (PLUGIN, field, ref.label, exc)
            ) from None
        except VaultError as exc:
            raise AnsibleLookupError("%s: could not read the %s of %s: %s" % (PLUGIN, field, ref.label, exc)) from None
