"""Password access requests (kind ``password_request``): the workflow's state.

One record per request of one user for one account's password, moving
through: ``waiting`` (requested) -> ``approved`` -> ``checked_out`` ->
``checked_in``; or ``waiting``/``approved`` -> ``rejected``. A request is
*open* until it is checked in or rejected, and a user has at most one open
request per account. Closed requests stay stored (the last one tells a
requester that a request was rejected).
"""
from vault_simulator.access import FULL_REACH_ROLES
from vault_simulator.lookups import ACCOUNT, RESOURCE
from vault_simulator.replies import Failure
from vault_simulator.timefmt import now_iso

PASSWORD_REQUEST = "password_request"
WAITING, APPROVED, CHECKED_OUT, CHECKED_IN, REJECTED = "waiting", "approved", "checked_out", "checked_in", "rejected"
OPEN_STATES = (WAITING, APPROVED, CHECKED_OUT)
# The STATUS of a PASSWORDREQUESTLIST item, by state.
STATUS_TEXT = {WAITING: "WAITING FOR APPROVAL", APPROVED: "APPROVED", CHECKED_OUT: "CHECKED OUT"}
# "The approve, reject and check-in operations are performed by an administrator."
APPROVER_ROLES = FULL_REACH_ROLES


def account_and_resource(store, account_id):
    """The account ``account_id`` and its resource; fail when there is no such account."""
    account = store.get(ACCOUNT, account_id)
    if account is None:
        raise Failure(f"Account with ID {account_id} does not exist")
    return account, store.get(RESOURCE, account["resource_id"])


def new_request(store, account, user, reason):
    request = {"id": store.next_id(PASSWORD_REQUEST), "account_id": account["id"],
               "resource_id": account["resource_id"], "requester_id": user["id"], "reason": reason,
               "state": WAITING, "requested": now_iso(), "decided_by": None}
    store.put(PASSWORD_REQUEST, request["id"], request)
    return request


def latest_request(store, account, user):
    """The newest request of ``user`` for ``account`` (open or closed), or ``None``."""
    mine = [r for r in store.all(PASSWORD_REQUEST)
            if r["account_id"] == account["id"] and r["requester_id"] == user["id"]]
    return mine[-1] if mine else None


def open_request(store, account, user):
    """The open request of ``user`` for ``account``, or ``None``."""
    request = latest_request(store, account, user)
    return request if request and request["state"] in OPEN_STATES else None


def open_requests(store):
    """Every open request whose account still exists, oldest first."""
    return [r for r in store.all(PASSWORD_REQUEST)
            if r["state"] in OPEN_STATES and store.get(ACCOUNT, r["account_id"]) is not None]


def checked_out_by(store, account):
    """The id of the user who has ``account``'s password checked out, or ``None``."""
    return next((r["requester_id"] for r in open_requests(store)
                 if r["account_id"] == account["id"] and r["state"] == CHECKED_OUT), None)


def move(store, request, state, by=None):
    """Store ``request`` in ``state``; ``by`` is the administrator who decided."""
    request["state"] = state
    if by is not None:
        request["decided_by"] = by["id"]
    store.put(PASSWORD_REQUEST, request["id"], request)
