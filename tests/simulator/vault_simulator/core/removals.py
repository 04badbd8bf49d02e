"""Deletes that cascade: what goes with a removed record is kept by other areas.

"A deleted resource takes its accounts, shares and group memberships with it",
and a deleted user, user group or resource group takes the shares given to or
of it. Each area states what of its own goes with a record of another kind::

    @when_removed(ACCOUNT)
    def forget_requests(store, account):
        delete_where(store, PASSWORD_REQUEST, lambda r: r["account_id"] == account["id"])

``remove(store, kind, record)`` runs every rule of ``kind`` (in the order the
areas registered them; they touch different records) and then deletes the
record. A rule may itself ``remove`` records (a resource removes its accounts).
"""

REMOVAL_RULES = {}


def when_removed(kind):
    """Register the decorated ``rule(store, record)``, run for each record of ``kind`` that ``remove`` deletes."""

    def register(rule):
        REMOVAL_RULES.setdefault(kind, []).append(rule)
        return rule

    return register


def remove(store, kind, record):
    """Delete ``record`` of ``kind`` together with everything the removal rules attach to it."""
    for rule in REMOVAL_RULES.get(kind, ()):
        rule(store, record)
    store.delete(kind, record["id"])


def delete_where(store, kind, matches):
    """Delete every record of ``kind`` for which ``matches(record)`` is true."""
    for record in store.all(kind):
        if matches(record):
            store.delete(kind, record["id"])
