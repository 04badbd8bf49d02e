"""``--seed-file FILE.yml``: user groups, users and resources with their accounts, made before the vault
announces itself.

Each entry is made by the areas' own handlers, called in-process as the built-in ``admin`` (no HTTP:
no request log, no audit record), so a seeded record is the one the vault's API would have made and the
API's checks apply to it. The whole file is one transaction: a file with any error leaves nothing behind.
Errors name the file, the line and the entry (``resources[0].accounts[1]``), with the vault's own message
where the vault refused it. A password or token of the file appears in no message: every error masks each value
written after a ``password`` or ``token`` key (as written, and as YAML read it), also in the problem PyYAML quotes
back (an unknown tag ``!Secret``, an undefined alias ``*Secret``); of PyYAML's errors only the position and the
problem are kept, never the offending line.
"""

import re

import yaml

from vault_simulator.areas.resources.accounts import add_accounts
from vault_simulator.areas.resources.resources import create_resource, edit_resource
from vault_simulator.areas.sharing.endpoints import share_account, share_resource
from vault_simulator.areas.user_groups.endpoints import add_user_to_group
from vault_simulator.areas.user_groups.records import add_user_group, user_group_by_name
from vault_simulator.areas.users.endpoints import create_user
from vault_simulator.core.access import DEFAULT_ROLE
from vault_simulator.core.authentication import ADMIN_NAME, allowed_hosts, issue_token
from vault_simulator.core.context import RequestContext
from vault_simulator.core.finders import account_by_name, resource_by_name, user_by_name
from vault_simulator.core.records import TOKEN, USER
from vault_simulator.core.replies import FAILED, Failure, Unsupported
from vault_simulator.core.tenancy import selected_organization

SECTIONS = ("user_groups", "users", "resources")
USER_GROUP_KEYS = {"name": True, "description": False}
USER_KEYS = {"name": True, "role": False, "token": False, "email": False, "groups": False, "allowed_hosts": False}
RESOURCE_KEYS = {
    "name": True,
    "type": True,
    "accounts": True,
    "description": False,
    "url": False,
    "department": False,
    "location": False,
    "owner": False,
    "shares": False,
}
ACCOUNT_KEYS = {"name": True, "password": True, "notes": False, "shares": False}
SHARE_KEYS = {"user": False, "user_group": False, "access": True}
# Resource fields the create handler does not take and the edit handler sets.
_EDITED_LATER = {"department": "DEPARTMENT", "location": "LOCATION"}
MASK = "********"


class SeedFileError(ValueError):
    """A seed file that cannot be applied; the message names where and why, never a password or token."""


class _Mapping(dict):
    """A YAML mapping that knows its line and the line of each key (1-based)."""

    line = 0
    key_lines: dict = {}


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, keeping lines for the error messages."""


def _construct_mapping(loader, node):
    mapping = _Mapping(loader.construct_mapping(node, deep=True))
    mapping.line = node.start_mark.line + 1
    mapping.key_lines = {key.value: key.start_mark.line + 1 for key, _value in node.value}
    return mapping


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


# A secret key and the text written after it, as it stands in the file (block or flow style), whatever YAML makes
# of it: the parser quotes back a tag (``!Tag-Secret``, ``!!python/name:Secret``) or an alias (``*Secret``) it
# cannot resolve.
_SECRET_VALUE = re.compile(r"""(?:^|[\s{,])["']?(?:password|token)["']?\s*:[ \t]+([^\n,}#]+)""", re.MULTILINE)


def _written_secrets(text):
    """Every text the file writes as the value of a secret key, and each of its words bare (no quote, tag, alias
    or anchor mark, no tag handle): what a message quoting the file could hold of a secret."""
    found = set()
    for value in _SECRET_VALUE.findall(text):
        for word in [value.strip()] + value.split():
            bare = word.strip("\"'").lstrip("!*&")
            found.update(part for part in (word, bare, bare.rpartition(":")[2]) if part)
    return found


def load_seed_file(path):
    """The file's content, checked for its shape (sections, keys, types); raises ``SeedFileError``."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or "not UTF-8 text"
        raise SeedFileError(f"seed file {path}: cannot be read: {reason}") from None
    seed = _Seed(path, _written_secrets(text))
    try:
        content = yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a yaml.SafeLoader
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        raise SeedFileError(seed.masked(f"seed file {path}, {where}: not valid YAML: {error.problem}")) from None
    except yaml.YAMLError:
        raise SeedFileError(f"seed file {path}: not valid YAML") from None
    seed.content = content if content is not None else _Mapping()
    seed.check()
    return seed


class _Seed:
    """A loaded seed file: ``check`` its shape, then ``apply_to`` a simulator."""

    def __init__(self, path, written_secrets):
        self.path = path
        self.content = _Mapping()
        self.secrets = set(written_secrets)

    def error(self, where, line, message):
        """The error at ``line`` of entry ``where``, every secret of the file masked in it."""
        return SeedFileError(self.masked(f"seed file {self.path}, line {line}: {where}: {message}"))

    def masked(self, message):
        """``message`` with every password and token of the file (as written, and as YAML read it), where it stands
        as a word, masked."""
        for secret in sorted(self.secrets, key=len, reverse=True):
            message = re.sub(rf"(?<![A-Za-z0-9]){re.escape(secret)}(?![A-Za-z0-9])", MASK, message)
        return message

    # The shape: every entry a mapping with known keys of the right types.

    def check(self):
        if not isinstance(self.content, dict):
            raise SeedFileError(f"seed file {self.path}: must be a mapping with the keys {', '.join(SECTIONS)}")
        for key in self.content:
            if key not in SECTIONS:
                line = self.content.key_lines.get(key, 1)
                raise self.error(key, line, f"unknown section (sections: {', '.join(SECTIONS)})")
        for group, where in self.entries("user_groups"):
            self.check_entry(group, where, USER_GROUP_KEYS)
        for user, where in self.entries("users"):
            self.check_entry(user, where, USER_KEYS, lists=("groups",))
            if "token" in user:
                self.secrets.add(str(user["token"]))
        for resource, where in self.entries("resources"):
            self.check_entry(resource, where, RESOURCE_KEYS, lists=("accounts", "shares"))
            self.check_shares(resource, where)
            accounts = self.items(resource, "accounts", where)
            if not accounts:
                raise self.error(where, resource.key_lines["accounts"], "a resource needs at least one account")
            for number, account in enumerate(accounts):
                account_where = f"{where}.accounts[{number}]"
                self.check_entry(account, account_where, ACCOUNT_KEYS, lists=("shares",))
                self.secrets.add(str(account["password"]))
                self.check_shares(account, account_where)

    def check_shares(self, entry, where):
        for number, share in enumerate(self.items(entry, "shares", where)):
            share_where = f"{where}.shares[{number}]"
            self.check_entry(share, share_where, SHARE_KEYS)
            if ("user" in share) == ("user_group" in share):
                raise self.error(share_where, share.line, "give exactly one of user or user_group")

    def entries(self, section):
        """``(entry, "section[n]")`` of a top-level list."""
        for number, entry in enumerate(self.items(self.content, section, section)):
            yield entry, f"{section}[{number}]"

    def items(self, mapping, key, where):
        value = mapping.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            line = mapping.key_lines.get(key, mapping.line)
            raise self.error(where if where != key else key, line, f"{key} must be a list")
        return value

    def check_entry(self, entry, where, keys, lists=()):
        """``entry`` is a mapping holding the required ``keys``, and only ``keys``, with non-empty strings
        (``lists``: lists; a list of names holds strings)."""
        if not isinstance(entry, _Mapping):
            raise SeedFileError(f"seed file {self.path}: {where}: must be a mapping")
        for key in entry:
            if key not in keys:
                allowed = ", ".join(keys)
                raise self.error(where, entry.key_lines[key], f"unknown key {key!r} (keys: {allowed})")
        for key, required in keys.items():
            if key not in entry:
                if required:
                    raise self.error(where, entry.line, f"{key!r} is required")
                continue
            line = entry.key_lines[key]
            value = entry[key]
            if key in lists:
                if not isinstance(value, list):
                    raise self.error(where, line, f"{key!r} must be a list")
            elif key == "groups":
                if not isinstance(value, list) or not all(isinstance(name, str) and name for name in value):
                    raise self.error(where, line, "'groups' must be a list of user group names")
            elif key == "allowed_hosts":
                if not isinstance(value, list) or not all(isinstance(host, str) for host in value):
                    raise self.error(where, line, "'allowed_hosts' must be a list of IP addresses or networks")
                try:
                    allowed_hosts(value)
                except ValueError as error:
                    raise self.error(where, line, f"'allowed_hosts': {error}") from None
            elif not isinstance(value, str) or not value.strip():
                raise self.error(where, line, f"{key!r} must be a non-empty string (quote numbers and dates)")

    # Applying: each entry through the handler of the endpoint that would make it.

    def apply_to(self, simulator):
        """Make everything the file describes in ``simulator`` (all of it, or nothing); raises ``SeedFileError``."""
        with simulator.store.transaction():
            self.apply(simulator)

    def apply(self, simulator):
        self.simulator = simulator
        self.admin = user_by_name(simulator.store, ADMIN_NAME)
        self.org = selected_organization(simulator.store, None)
        store = simulator.store
        for group, where in self.entries("user_groups"):
            if user_group_by_name(store, group["name"].strip()) is not None:
                raise self.error(where, group.line, f"User group {group['name']} already exists")
            add_user_group(store, group["name"], group.get("description", ""))
        for user, where in self.entries("users"):
            self.apply_user(user, where)
        for resource, where in self.entries("resources"):
            self.apply_resource(resource, where)

    def run(self, where, line, handler, details=None, query=None, **arguments):
        """The handler's Reply, as the admin's request with ``details`` and ``query`` would get it; a refusal
        raises ``SeedFileError`` with the vault's message (``error`` masks the file's secrets in it)."""
        config = self.simulator.config
        context = RequestContext(
            config, self.simulator.store, self.admin, details or {}, query or {}, {}, self.simulator.rng, self.org
        )
        try:
            reply = handler(context, **arguments)
        except Failure as failure:
            raise self.error(where, line, failure.message) from None
        except Unsupported as unsupported:
            message = f"{unsupported} is not supported by edition {config.edition} build {config.build}"
            raise self.error(where, line, message) from None
        if reply.status == FAILED:
            raise self.error(where, line, self.refusal(reply))
        return reply

    @staticmethod
    def refusal(reply):
        """The message of a Failed reply; ADD ACCOUNTS gives each account's own in Details."""
        if isinstance(reply.details, list) and reply.details and isinstance(reply.details[0], dict):
            return "; ".join(status["STATUS"] for status in reply.details[0].values())
        return reply.message

    def apply_user(self, user, where):
        """An API user; with ``token``, that is its AUTHTOKEN (instead of the random one the vault made); with
        ``allowed_hosts``, its tokens work from those addresses only."""
        store = self.simulator.store
        details = {"USERNAME": user["name"], "ROLE": user.get("role", DEFAULT_ROLE), "ISAPIUSER": True}
        details.update({"EMAIL": user["email"]} if "email" in user else {})
        created = self.run(where, user.line, create_user, details)
        if "token" in user:
            if store.get(TOKEN, user["token"]) is not None:
                raise self.error(where, user.key_lines["token"], "this token belongs to another user")
            store.delete(TOKEN, created.details["AUTHTOKEN"])
            issue_token(store, self.simulator.rng, user_by_name(store, user["name"])["id"], user["token"])
        if user.get("allowed_hosts"):
            record = user_by_name(store, user["name"])
            record["allowed_hosts"] = allowed_hosts(user["allowed_hosts"])
            store.put(USER, record["id"], record)
        for group_name in user.get("groups", []):
            query = {"USERNAME": user["name"], "USERGROUPNAME": group_name}
            self.run(where, user.key_lines["groups"], add_user_to_group, query=query)

    def apply_resource(self, resource, where):
        """The resource with its first account, then its other accounts, then the shares."""
        store = self.simulator.store
        first, *others = resource["accounts"]
        details = {
            "RESOURCENAME": resource["name"],
            "RESOURCETYPE": resource["type"],
            "RESOURCEDESCRIPTION": resource.get("description", ""),
            "RESOURCEURL": resource.get("url", ""),
            "OWNERNAME": resource.get("owner", ADMIN_NAME),
            "ACCOUNTNAME": first["name"],
            "PASSWORD": first["password"],
            "NOTES": first.get("notes", ""),
        }
        self.run(where, resource.line, create_resource, details)
        made = resource_by_name(store, resource["name"], self.org)
        edits = {field: resource[key] for key, field in _EDITED_LATER.items() if key in resource}
        if edits:
            self.run(where, resource.line, edit_resource, edits, resource_id=made["id"])
        for number, account in enumerate(others, start=1):
            account_where = f"{where}.accounts[{number}]"
            item = {"ACCOUNTNAME": account["name"], "PASSWORD": account["password"], "NOTES": account.get("notes", "")}
            self.run(account_where, account.line, add_accounts, {"ACCOUNTLIST": [item]}, resource_id=made["id"])
        for number, share in enumerate(resource.get("shares", [])):
            self.share(f"{where}.shares[{number}]", share, share_resource, resource_id=made["id"])
        for number, account in enumerate(resource["accounts"]):
            account_id = account_by_name(store, made, account["name"])["id"]
            for share_number, share in enumerate(account.get("shares", [])):
                share_where = f"{where}.accounts[{number}].shares[{share_number}]"
                self.share(share_where, share, share_account, resource_id=made["id"], account_id=account_id)

    def share(self, where, share, handler, **arguments):
        """Run a share handler for ``share``: a user's or a user group's, by name."""
        store = self.simulator.store
        if "user" in share:
            grantee, key, missing = user_by_name(store, share["user"]), "USERID", f"User {share['user']} does not exist"
        else:
            name = share["user_group"]
            grantee, key, missing = user_group_by_name(store, name), "USERGROUPID", f"User group {name} does not exist"
        if grantee is None:
            raise self.error(where, share.line, missing)
        self.run(where, share.line, handler, {"ACCESSTYPE": share["access"], key: grantee["id"]}, **arguments)
