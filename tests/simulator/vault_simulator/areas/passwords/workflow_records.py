"""Password access requests (kind ``password_request``): the workflow's state.

One record per request of one user for one account's password, moving
through: ``waiting`` (requested) -> ``approved`` -> ``checked_out`` ->
``checked_in``; or ``waiting``/``approved`` -> ``rejected``. A request is
*open* until it is checked in or rejected, and a user has at most one open
request per account. Closed requests stay stored (the last one tells a
requester that a request was rejected). A removed account takes its
requests with it, and so does a removed requester.
"""

from vault_simulator.core.access import FULL_REACH_ROLES
from vault_simulator.core.records import ACCOUNT, PASSWORD_REQUEST, USER
from vault_simulator.core.removals import delete_where, when_removed
from vault_simulator.core.timefmt import now_iso

WAITING, APPROVED, CHECKED_OUT, CHECKED_IN, REJECTED = "waiting", "approved", "checked_out", "checked_in", "rejected"
OPEN_STATES = (WAITING, APPROVED, CHECKED_OUT)
# The STATUS of a PASSWORDREQUESTLIST item, by state.
STATUS_TEXT = {WAITING: "WAITING FOR APPROVAL", APPROVED: "APPROVED", CHECKED_OUT: "CHECKED OUT"}
# "The approve, reject and check-in operations are performed by an administrator."
APPROVER_ROLES = FULL_REACH_ROLES


def new_request(store, account, user, reason):
    request = {
        "id": store.next_id(PASSWORD_REQUEST),
        "account_id": account["id"],
        "resource_id": account["resource_id"],
        "requester_id": user["id"],
        "reason": reason,
        "state": WAITING,
        "requested": now_iso(),
        "decided_by": None,
    }
    store.put(PASSWORD_REQUEST, request["id"], request)
    return request


def latest_request(store, account, user):
    """The newest request of ``user`` for ``account`` (open or closed), or ``None``."""
    mine = [
        r for r in store.all(PASSWORD_REQUEST) if r["account_id"] == account["id"] and r["requester_id"] == user["id"]
    ]
    return mine[-1] if mine else None


def open_request(store, account, user):
    """The open request of ``user`` for ``account``, or ``None``."""
    request = latest_request(store, account, user)
    return request if request and request["state"] in OPEN_STATES else None


def open_requests(store):
    """Every open request whose account still exists, oldest first."""
    return [
        r
        for r in store.all(PASSWORD_REQUEST)
        if r["state"] in OPEN_STATES and store.get(ACCOUNT, r["account_id"]) is not None
    ]


def checked_out_by(store, account):
    """The id of the user who has ``account``'s password checked out, or ``None``."""
    return next(
        (
            r["requester_id"]
            for r in open_requests(store)
            if r["account_id"] == account["id"] and r["state"] == CHECKED_OUT
        ),
        None,
    )


def move(store, request, state, by=None):
    """Store ``request`` in ``state``; ``by`` is the administrator who decided."""
    request["state"] = state
    if by is not None:
        request["decided_by"] = by["id"]
    store.put(PASSWORD_REQUEST, request["id"], request)


@when_removed(ACCOUNT)
def forget_account_requests(store, account):
    delete_where(store, PASSWORD_REQUEST, lambda r: r["account_id"] == account["id"])


@when_removed(USER)
def forget_requester(store, user):
    delete_where(store, PASSWORD_REQUEST, lambda r: r["requester_id"] == user["id"])
