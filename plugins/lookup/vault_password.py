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
  - All terms of one call share one client and its pool of connections to the vault, and are fetched O(concurrency)
    at a time; the result keeps the order of the terms.
  - Requests per call. Each distinct account costs one request to fetch the secret, plus, to resolve its names to
    ids, one request (C(GET_RESOURCEACCOUNTID)) when it is the only account named of its resource, while all the
    accounts named of one resource cost two requests together (C(GET_RESOURCEID) and C(GET RESOURCE ACCOUNTLIST)).
    So a term costs two requests cold, about one when many terms name the same resource, and one with a warm
    O(id_cache). A term given twice is fetched once. A missing resource or account costs a few more requests.
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
  totp_min_validity:
    description:
      - With O(field=totp), the least number of seconds the returned code is still valid for, in its window of
        O(totp_period) seconds. A code that would expire sooner is not returned; the lookup waits until the next
        window opens and fetches the code of that window.
      - Measured on the controller's clock, which is taken to agree with the vault's (keep both synchronized, for
        example with NTP); add the largest expected difference to this value.
      - All terms of a call are fetched together, so the call waits at most once before fetching, plus at most
        twice more when the fetch ends in the next window or too late in its own; a call that cannot fetch in time
        after that fails.
      - Less than O(totp_period). V(0) returns the current code whatever time it has left.
      - A keyword of the lookup only (no variable, environment or ini setting); refused with O(field=password).
    type: int
    default: 0
    version_added: 0.5.0
  totp_period:
    description:
      - With O(field=totp), the length in seconds of the account's TOTP windows, its C(TOTP_VALIDITY) setting;
        used only by O(totp_min_validity).
      - The vault does not report C(TOTP_VALIDITY) to the lookup, so it is not read from the vault; the vault's
        default of 30 seconds is assumed unless set here. Windows are taken to be aligned to the Unix epoch, as in
        RFC 6238 - a code changes at every multiple of O(totp_period) seconds.
      - At least V(1). A keyword of the lookup only; refused with O(field=password).
    type: int
    default: 30
    version_added: 0.5.0
  default:
    description:
      - Returned, for each account, instead of failing when the account or its resource does not exist (or the token
        cannot see it); set, it wins over O(on_missing).
      - Never returned when the vault refuses the retrieval (see O(on_denied)), when the vault has no TOTP, or when
        it cannot be reached.
      - Without O(default), a missing account or resource goes by O(on_missing) (by default, it fails).
    type: str
  concurrency:
    description:
      - How many requests of the call run at once, over as many connections to the vault (threads of the lookup,
        never more than there are accounts). V(1) sends them one after another.
      - From V(1) to V(64).
    type: int
    default: 8
    env:
      - name: CREDVAULT_LOOKUP_CONCURRENCY
    ini:
      - section: credvault_vault
        key: lookup_concurrency
  id_cache:
    description:
      - Keep the ids the names resolve to in the file O(id_cache_path) for O(id_cache_ttl) seconds, so that a later
        call fetches an account it knows with one request.
      - The file holds ids and names only, never a password, a TOTP code or the token. Its entries are kept per
        vault and token under a SHA-256 hash of the URL, O(org_name) and the token.
      - The directory is created with mode 0700 and the file is written with mode 0600 (a temporary file renamed
        over it, merging what another process wrote meanwhile). A file that is a symbolic link, is not this user's
        own or that group or others may write is not used, with a warning; a file that is not a cache file is
        ignored with a warning and rewritten.
      - When the vault refuses cached ids (the account was deleted and created again), the names are resolved
        again, once, and the new ids are used and cached; a name that no longer exists is removed from the file.
      - A cached id follows the account, not the name; an account renamed within O(id_cache_ttl) is still fetched
        under its old name. Leave the cache off where names are reused for other accounts.
    type: bool
    default: false
    env:
      - name: CREDVAULT_ID_CACHE
    ini:
      - section: credvault_vault
        key: id_cache
  id_cache_path:
    description: The file of O(id_cache).
    type: path
    default: ~/.cache/credvault.vault/account_ids.json
    env:
      - name: CREDVAULT_ID_CACHE_PATH
    ini:
      - section: credvault_vault
        key: id_cache_path
  id_cache_ttl:
    description: Seconds for which an id in O(id_cache) is used without resolving the names again; at least V(1).
    type: int
    default: 86400
    env:
      - name: CREDVAULT_ID_CACHE_TTL
    ini:
      - section: credvault_vault
        key: id_cache_ttl
extends_documentation_fragment:
  - credvault.vault.authorization
  - credvault.vault.connection
  - credvault.vault.connection.plugins
  - credvault.vault.lookup_outcomes
  - credvault.vault.run_cache
notes:
  - A missing resource or account, a refused retrieval (no access) and a reason or ticket missing fail with different
    messages; none contains the secret. An unknown keyword fails, naming the keywords there are.
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

- name: A TOTP code that stays valid for at least 5 more seconds (waits for the next code when needed)
  ansible.builtin.set_fact:
    # totp_period is the account's TOTP_VALIDITY, which the vault does not report; 30 is also the default.
    fresh_console_code: "{{ lookup('credvault.vault.vault_password', 'web-01/console', field='totp',
                                   totp_min_validity=5, totp_period=30) }}"
  no_log: true

- name: Names containing a slash, with the reason and ticket the vault demands
  ansible.builtin.set_fact:
    db_password: "{{ lookup('credvault.vault.vault_password', resource='db/primary', account='app',
                            reason='Migration', ticket_id='CHG-1234') }}"
  no_log: true

- name: Several accounts in one call (one client, fetched at once)
  ansible.builtin.set_fact:
    passwords: "{{ query('credvault.vault.vault_password', 'web-01/root', 'web-02/root') }}"
  no_log: true

- name: Many accounts at once, 16 requests at a time, their ids kept for an hour for the next runs
  ansible.builtin.set_fact:
    # vault_id_cache_file is where this project keeps the ids, for example ~/.cache/deploy/vault_ids.json
    many_passwords: "{{ query('credvault.vault.vault_password', many_accounts, concurrency=16,
                              id_cache=true, id_cache_ttl=3600, id_cache_path=vault_id_cache_file) }}"
  vars:
    many_accounts: [web-01/root, web-01/deploy, web-02/root]
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

- name: The passwords this token may read, with a warning naming each account it may not or that does not exist
  ansible.builtin.set_fact:
    readable_passwords: "{{ query('credvault.vault.vault_password', 'web-01/root', 'web-02/root', 'web-03/root',
                                  on_denied='warn', on_missing='warn') }}"
  no_log: true
"""

RETURN = r"""
_raw:
  description:
    - One password or TOTP code (or O(default)) per account, in the order of the terms.
    - Without the terms that O(on_missing) or O(on_denied) left out.
  type: list
  elements: str
"""

from functools import partial

from ansible.errors import AnsibleLookupError

from ansible_collections.credvault.vault.plugins.module_utils import _account
from ansible_collections.credvault.vault.plugins.module_utils._errors import (
    VaultAPIError,
    VaultError,
    VaultNotFoundError,
    VaultUnsupportedError,
    is_denial,
    is_refusal,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._account_ids import AccountIds
from ansible_collections.credvault.vault.plugins.plugin_utils._id_cache import IdCache, identity
from ansible_collections.credvault.vault.plugins.plugin_utils._lookup import (
    DeniedSecret,
    MissingSecret,
    VaultLookupBase,
    worker_pool,
)
from ansible_collections.credvault.vault.plugins.plugin_utils._run_cache import PASSWORD
from ansible_collections.credvault.vault.plugins.plugin_utils._totp_window import (
    ATTEMPTS,
    TotpWindow,
    TotpWindowMissed,
)

PLUGIN = "vault_password"
CONCURRENCY_RANGE = (1, 64)
TOTP_OPTIONS = ("totp_min_validity", "totp_period")


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
        window = self._totp_window(kwargs)
        names = self._names(self.flatten_terms(terms))
        pairs = list(dict.fromkeys(names))
        concurrency = self._concurrency()
        if self.get_option("field") == "totp":  # a code is never served from the run cache
            secrets = self._fetch(concurrency, window, pairs)
        else:
            secrets = self.run_cached(pairs, self._cache_key, partial(self._fetch, concurrency, None))
        values = self.settle(["%s/%s" % name for name in names], [secrets[name] for name in names])
        return self.secrets(values)

    def _fetch(self, concurrency, window, pairs):
        """``{pair: secret or AnsibleLookupError}`` from the vault, ``concurrency`` at a time."""
        workers = min(concurrency, len(pairs))
        cache = self._id_cache()
        # One connection needs no pool of its own: requests' default keeps it open for the next request.
        client = self.open_client(pool_size=workers if workers > 1 else None)
        try:
            with worker_pool(workers) as run_all:
                ids = AccountIds(client, cache, run_all)
                resolved = ids.resolve(pairs)
                fetches = [partial(self._secret, ids, pair, resolved[pair]) for pair in pairs]
                return dict(zip(pairs, self._fetch_in_time(window, partial(run_all, fetches))))
        finally:
            client.close()
            if cache is not None:
                cache.save()

    def _cache_key(self, cache, pair):
        resource, account = pair
        reason, ticket = self.get_option("reason"), self.get_option("ticket_id")
        return cache.key(PASSWORD, self.connection_option, resource, account, reason, ticket)

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

    def _concurrency(self):
        concurrency = self.get_option("concurrency")
        lowest, highest = CONCURRENCY_RANGE
        if not lowest <= concurrency <= highest:
            raise AnsibleLookupError(
                "%s: concurrency must be from %d to %d, not %d" % (PLUGIN, lowest, highest, concurrency)
            )
        return concurrency

    def _totp_window(self, kwargs):
        """The ``TotpWindow`` of ``totp_min_validity`` and ``totp_period``, or None when no code needs time left.

        The options are keywords only (no variable, environment or ini source), so ``kwargs`` tells whether they
        were given; they are refused with ``field=password`` rather than ignored.
        """
        given = [name for name in TOTP_OPTIONS if name in kwargs]
        if self.get_option("field") != "totp":
            if given:
                raise AnsibleLookupError(
                    "%s: %s= appl%s only to field=totp"
                    % (PLUGIN, "= and ".join(given), "y" if len(given) > 1 else "ies")
                )
            return None
        period, min_validity = self.get_option("totp_period"), self.get_option("totp_min_validity")
        if period < 1:
            raise AnsibleLookupError("%s: totp_period must be 1 or more seconds" % PLUGIN)
        if min_validity < 0:
            raise AnsibleLookupError("%s: totp_min_validity must be 0 or more seconds" % PLUGIN)
        if min_validity >= period:
            raise AnsibleLookupError(
                "%s: totp_min_validity must be less than totp_period (the account's TOTP_VALIDITY, 30 seconds "
                "unless set)" % PLUGIN
            )
        return TotpWindow(period, min_validity) if min_validity else None

    def _fetch_in_time(self, window, fetch_all):
        """``fetch_all()``, timed by ``window`` when there is one (``totp_min_validity``). A term that failed fails
        the call, so its codes are not fetched again."""
        if window is None:
            return fetch_all()
        try:
            return window.fetch(fetch_all, failed=lambda secrets: any(self.fails(secret) for secret in secrets))
        except TotpWindowMissed:
            raise AnsibleLookupError(
                "%s: no TOTP code with totp_min_validity seconds left in its window after %d attempts; the vault "
                "answers too slowly for that margin, or totp_period is not the account's TOTP_VALIDITY"
                % (PLUGIN, ATTEMPTS)
            ) from None

    def _id_cache(self):
        """The ``IdCache`` of this vault and token when ``id_cache`` is on, else None."""
        if not self.get_option("id_cache"):
            return None
        ttl = self.get_option("id_cache_ttl")
        if ttl < 1:
            raise AnsibleLookupError("%s: id_cache_ttl must be 1 or more seconds, not %d" % (PLUGIN, ttl))
        key = identity(*map(self.connection_option, ("url", "org_name", "auth_token")))
        return IdCache(self.get_option("id_cache_path"), key, ttl, self.warn)

    def _secret(self, ids, pair, resolved):
        """The secret of ``pair``, or the ``AnsibleLookupError`` of its term (``settle`` decides what a
        ``MissingSecret`` or a ``DeniedSecret`` gives)."""
        label = "%s/%s" % pair
        if isinstance(resolved, VaultNotFoundError):
            return MissingSecret("%s: not found: %s" % (PLUGIN, resolved))
        if is_refusal(resolved) or is_denial(resolved):
            refused = DeniedSecret if is_denial(resolved) else AnsibleLookupError
            return refused("%s: the vault refused to look up %s for this token: %s" % (PLUGIN, label, resolved))
        if isinstance(resolved, VaultError):
            return AnsibleLookupError("%s: could not look up %s: %s" % (PLUGIN, label, resolved))
        try:
            return ids.read(resolved, partial(self._read, ids.client))
        except VaultNotFoundError as exc:
            return MissingSecret("%s: not found: %s" % (PLUGIN, exc))
        except VaultError as exc:
            return self._read_failure(label, exc)

    def _read(self, client, ref):
        """The password or TOTP code (``field``)."""
        if self.get_option("field") == "totp":
            return _account.get_totp(client, ref)
        return _account.get_password(client, ref, self.get_option("reason"), self.get_option("ticket_id"))

    def _read_failure(self, label, exc):
        """A vault without TOTP, an account without one, a refusal and other failures, each saying which."""
        field = self.get_option("field")
        if isinstance(exc, _account.AccountWithoutTotp):
            return AnsibleLookupError("%s: %s" % (PLUGIN, exc))
        if isinstance(exc, VaultUnsupportedError):
            return AnsibleLookupError("%s: the %s of %s is not available: %s" % (PLUGIN, field, label, exc))
        if isinstance(exc, VaultAPIError):
            refused = DeniedSecret if is_denial(exc) else AnsibleLookupError
            return refused("%s: the vault refused the %s of %s: %s" % (PLUGIN, field, label, exc))
        return AnsibleLookupError("%s: could not read the %s of %s: %s" % (PLUGIN, field, label, exc))
