"""The password workflow: request, list requests, approve, reject, check out, check in.

The endpoints work whether or not password access control is on
(``--access-control``), so that a request can always be followed through;
access control decides what depends on them: a user who is not an
Administrator or Privileged Administrator then retrieves a password only
while holding it checked out (GET PASSWORD), and a checked-out password
reads ``[In Use]`` in PASSWORD STATUS. Without access control a checkout
changes neither.

Any user who may view the account's resource requests and checks out; the
approve, reject and check-in operations are performed by an administrator
(Administrator or Privileged Administrator), who may not approve their own
request. Only one user at a time holds a password checked out.
"""

from vault_simulator.areas.passwords.workflow_records import (
    APPROVED,
    APPROVER_ROLES,
    CHECKED_IN,
    CHECKED_OUT,
    REJECTED,
    STATUS_TEXT,
    WAITING,
    checked_out_by,
    latest_request,
    move,
    new_request,
    open_request,
    open_requests,
)
from vault_simulator.core.access import VIEW, require_account_access
from vault_simulator.core.finders import account_and_resource
from vault_simulator.core.inputs import required_text, text
from vault_simulator.core.reason_and_ticket import require_reason
from vault_simulator.core.records import ACCOUNT, USER
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.replies import Failure, success
from vault_simulator.core.tenancy import in_organization
from vault_simulator.core.timefmt import vault_time

# Details.STATUS of REQUEST_PASSWORD and REQUEST_CHECKOUT, as the spec gives them.
WAITING_STATUS = "WAITING FOR APPROVAL / CHECKOUT"
CHECKED_OUT_STATUS = "***** [checkIn]"


@endpoint("POST", "/accounts/<account_id>/requestpassword", op="REQUEST_PASSWORD", builds=ANY_BUILD)
def request_password(ctx, account_id):
    """Details.REASON is needed when the vault forces a reason; PASSWDID, when given,
    must be the account's (it equals the account id). A user has at most one open
    request per account."""
    account, resource = _account_for(ctx, account_id, "request")
    _check_passwd_id(ctx, account)
    reason = _reason(ctx, "request")
    current = open_request(ctx.store, account, ctx.user)
    if current is not None:
        raise Failure(_already(current, _label(resource, account)))
    new_request(ctx.store, account, ctx.user, reason)
    return success(f"Password request for {_label(resource, account)} raised successfully", {"STATUS": WAITING_STATUS})


@endpoint("GET", "/accounts/passwordaccessrequests", op="GET_PASSWORDREQUEST", builds=ANY_BUILD)
def list_requests(ctx):
    """The open requests (waiting, approved, checked out) of one requester, in the
    selected organization: Details holds REQUESTER USERID, REQUESTED BY, REQUESTED BY
    FULLNAME and the PASSWORDREQUESTLIST of that requester's requests.

    A requester sees their own requests. An administrator sees the requests awaiting
    an administrator, one requester at a time (the spec's Details names one requester):
    the requester whose oldest open request came first, or the user whose id is given
    in Details.REQUESTEDID (the spec's name for the requester's user id). With nothing
    to show, Details names the caller and the list is empty. STATUS reads ``WAITING FOR
    APPROVAL``, ``APPROVED`` or ``CHECKED OUT``; REQUESTED TIME is formatted like LAST
    MODIFIED TIME.
    """
    visible = [r for r in open_requests(ctx.store) if in_organization(_resource_of(ctx, r), ctx.org)]
    requester = _listed_requester(ctx, visible)
    items = [_request_item(ctx, r) for r in visible if r["requester_id"] == requester["id"]]
    return success(
        "Password requests fetched successfully",
        {
            "REQUESTER USERID": requester["id"],
            "REQUESTED BY": requester["name"],
            "REQUESTED BY FULLNAME": _full_name(requester),
            "PASSWORDREQUESTLIST": items,
        },
    )


@endpoint(
    "POST", "/accounts/<account_id>/requester/<requester_id>/approve", op="ADMIN_REQUEST_APPROVE", builds=ANY_BUILD
)
def approve_request(ctx, account_id, requester_id):
    """Approve the waiting request of the requester; the requester may then check out."""
    account, resource, requester, request = _decision(ctx, account_id, requester_id, "approve")
    label = _label(resource, account)
    if requester["id"] == ctx.user["id"]:
        raise Failure("You cannot approve your own password request")
    if request["state"] != WAITING:
        raise Failure(
            f"The request of {requester['name']} for the password of {label} is already "
            f"{'approved' if request['state'] == APPROVED else 'checked out'}"
        )
    move(ctx.store, request, APPROVED, by=ctx.user)
    return success(f"Password request of {requester['name']} for {label} approved successfully")


@endpoint("POST", "/accounts/<account_id>/requester/<requester_id>/reject", op="ADMIN_REQUEST_REJECT", builds=ANY_BUILD)
def reject_request(ctx, account_id, requester_id):
    """Details: PASSWDID and REQUESTEDID, which must match the path. A waiting or
    approved (not yet checked out) request can be rejected; a checked-out password
    is checked in instead."""
    _check_identifiers(ctx, account_id, requester_id)
    account, resource, requester, request = _decision(ctx, account_id, requester_id, "reject")
    label = _label(resource, account)
    if request["state"] == CHECKED_OUT:
        raise Failure(
            f"The password of {label} is checked out by {requester['name']}: check it in "
            "instead of rejecting the request"
        )
    move(ctx.store, request, REJECTED, by=ctx.user)
    return success(f"Password request of {requester['name']} for {label} rejected successfully")


@endpoint("POST", "/accounts/<account_id>/checkout", op="REQUEST_CHECKOUT", builds=ANY_BUILD)
def check_out(ctx, account_id):
    """The caller checks out the password their approved request covers. Details.REASON
    is needed when the vault forces a reason. Details.STATUS is ``***** [checkIn]``."""
    account, resource = _account_for(ctx, account_id, "check out")
    label = _label(resource, account)
    latest = latest_request(ctx.store, account, ctx.user)
    state = latest["state"] if latest else None
    if state != APPROVED:
        raise Failure(_not_approved(state, label))
    holder = checked_out_by(ctx.store, account)
    if holder is not None:
        raise Failure(f"The password of {label} is in use by {ctx.store.get(USER, holder)['name']}")
    _reason(ctx, "check out")
    move(ctx.store, latest, CHECKED_OUT)
    if ctx.config.access_control:
        account["in_use"] = True
        ctx.store.put(ACCOUNT, account["id"], account)
    return success(f"Password of {label} checked out successfully", {"STATUS": CHECKED_OUT_STATUS})


@endpoint(
    "POST", "/accounts/<account_id>/requester/<requester_id>/checkin", op="ADMIN_REQUEST_CHECKIN", builds=ANY_BUILD
)
def check_in(ctx, account_id, requester_id):
    """Details: PASSWDID and REQUESTEDID, which must match the path. Ends the
    requester's checkout: the password reads ``*****`` again and the requester needs
    a new request to retrieve it under access control."""
    _check_identifiers(ctx, account_id, requester_id)
    account, resource, requester, request = _decision(ctx, account_id, requester_id, "check in")
    label = _label(resource, account)
    if request["state"] != CHECKED_OUT:
        raise Failure(f"The password of {label} is not checked out by {requester['name']}")
    move(ctx.store, request, CHECKED_IN, by=ctx.user)
    account.pop("in_use", None)
    ctx.store.put(ACCOUNT, account["id"], account)
    return success(f"Password of {label} checked in successfully for {requester['name']}")


def _account_for(ctx, account_id, action):
    account, resource = account_and_resource(ctx.store, account_id)
    ctx.audit["resource"] = resource["name"]
    require_account_access(
        ctx.store, ctx.user, resource, account, VIEW, f"{action} the password of {_label(resource, account)}"
    )
    return account, resource


def _decision(ctx, account_id, requester_id, action):
    """Account, resource, requester and open request of an administrator's decision."""
    if ctx.user["role"] not in APPROVER_ROLES:
        raise Failure(f"Only an administrator can {action} password requests")
    account, resource = account_and_resource(ctx.store, account_id)
    ctx.audit["resource"] = resource["name"]
    requester = ctx.store.get(USER, requester_id)
    if requester is None:
        raise Failure(f"User with ID {requester_id} does not exist")
    ctx.audit["username"] = requester["name"]
    request = open_request(ctx.store, account, requester)
    if request is None:
        raise Failure(f"User {requester['name']} has no open request for the password of {_label(resource, account)}")
    return account, resource, requester, request


def _check_identifiers(ctx, account_id, requester_id):
    """PASSWDID and REQUESTEDID of reject and check-in: required, and those of the path."""
    for key, what, expected in (("PASSWDID", "account", account_id), ("REQUESTEDID", "requester", requester_id)):
        given = required_text(ctx.details, key)
        if given != expected:
            raise Failure(f"{key} {given} does not match the {what} {expected} of the path")


def _check_passwd_id(ctx, account):
    given = text(ctx.details, "PASSWDID").strip()
    if given and given != account["id"]:
        raise Failure(f"PASSWDID {given} does not match the account {account['id']} of the path")


def _reason(ctx, action):
    return require_reason(ctx, f"A reason is required to {action} this password")


def _already(request, label):
    if request["state"] == WAITING:
        return f"You have already requested the password of {label}: the request is waiting for approval"
    if request["state"] == APPROVED:
        return f"Your request for the password of {label} is already approved: check it out"
    return f"You have already checked out the password of {label}"


def _not_approved(state, label):
    """Why the caller cannot check out, by the state of their latest request."""
    return {
        None: f"You have not requested the password of {label}",
        WAITING: f"Your request for the password of {label} is waiting for approval",
        REJECTED: f"Your request for the password of {label} was rejected",
        CHECKED_IN: f"Your checkout of the password of {label} has ended: request it again",
        CHECKED_OUT: f"You have already checked out the password of {label}",
    }[state]


def _listed_requester(ctx, visible):
    if ctx.user["role"] not in APPROVER_ROLES:
        if text(ctx.details, "REQUESTEDID").strip() not in ("", ctx.user["id"]):
            raise Failure("You are not authorized to view the password requests of other users")
        return ctx.user
    wanted = text(ctx.details, "REQUESTEDID").strip() or (visible[0]["requester_id"] if visible else ctx.user["id"])
    requester = ctx.store.get(USER, wanted)
    if requester is None:
        raise Failure(f"User with ID {wanted} does not exist")
    return requester


def _request_item(ctx, request):
    account = ctx.store.get(ACCOUNT, request["account_id"])
    resource = _resource_of(ctx, request)
    return {
        "ACCOUNT ID": account["id"],
        "ACCOUNT NAME": account["name"],
        "RESOURCE ID": resource["id"],
        "RESOURCE NAME": resource["name"],
        "PASSWD ID": account["id"],
        "STATUS": STATUS_TEXT[request["state"]],
        "REQUESTED TIME": vault_time(request["requested"]),
        "REASON": request["reason"],
    }


def _resource_of(ctx, request):
    return account_and_resource(ctx.store, request["account_id"])[1]


def _full_name(user):
    return user.get("full_name") or f"{user.get('first_name', '')} {user.get('last_name', '')}".strip() or user["name"]


def _label(resource, account):
    return f"{resource['name']}/{account['name']}"
