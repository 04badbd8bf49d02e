"""User groups: membership, id lookup, listing and deletion, and the admin endpoint that adds one.

The spec has no endpoint that creates a user group (see ``records``). Only
an Administrator or Privileged Administrator manages or lists user groups; any
user may look up a group's id.
"""

from flask import jsonify, request

from vault_simulator.areas.user_groups.records import add_user_group, existing_user_group_by_name, user_group_item
from vault_simulator.core.access import require_user_manager
from vault_simulator.core.admin import admin_blueprint
from vault_simulator.core.finders import existing_user_by_name
from vault_simulator.core.inputs import required_text
from vault_simulator.core.list_search import search_page
from vault_simulator.core.records import USER, USER_GROUP
from vault_simulator.core.registry import ANY_BUILD, endpoint
from vault_simulator.core.removals import remove
from vault_simulator.core.replies import FAILED, SUCCESS, Failure, Reply, success
from vault_simulator.core.simulator import current_simulator
from vault_simulator.core.styles import REST_OPERATION_NAME

# "statusCode 20000 means success"; 46000 is the spec's example for an invalid user group id.
SUCCESS_CODE = 20000
INVALID_GROUP_CODE = 46000
# "For user groups it is one of userGroupId, userGroupName, description."
GROUP_SEARCH_COLUMNS = ("userGroupId", "userGroupName", "description")


@endpoint("POST", "/user/addUserToUserGroup", op="ADD USER TO USERGROUP", builds=ANY_BUILD)
def add_user_to_group(ctx):
    """USERNAME and USERGROUPNAME come from the query; the group must exist. Adding a member
    again succeeds. Edition B adds Details.USERGROUPID."""
    require_user_manager(ctx.user, "manage user groups")
    user = existing_user_by_name(ctx.store, required_text(ctx.query, "USERNAME"))
    group = existing_user_group_by_name(ctx.store, required_text(ctx.query, "USERGROUPNAME"))
    ctx.audit["username"] = user["name"]
    if user["id"] in group["member_ids"]:
        message = f"User {user['name']} is already a member of user group {group['name']}"
    else:
        group["member_ids"].append(user["id"])
        ctx.store.put(USER_GROUP, group["id"], group)
        message = f"User {user['name']} has been added to user group {group['name']}"
    return success(message, {"USERGROUPID": group["id"]} if ctx.config.edition == "B" else None)


@endpoint("GET", "/user/getUserGroupId", op="GET_USERGROUPID", builds={"A": 11200, "B": 5100})
def user_group_id_of_name(ctx):
    """USERGROUPNAME comes from the query; Details.USERGROUPID is a string, like USERID."""
    group = existing_user_group_by_name(ctx.store, required_text(ctx.query, "USERGROUPNAME"))
    return success("User group ID fetched successfully", {"USERGROUPID": group["id"]})


@endpoint("POST", "/user/removeUserFromUserGroup", op="REMOVE USER FROM USER_GROUP", builds={"A": 12230, "B": 6000})
def remove_users_from_groups(ctx):
    """Details USERIDS and USERGROUPIDS (lists of numbers). Details.RESULT has one item per
    user and group pair, {USERID, USERGROUPID, message, status}, the ids as numbers. The
    result is Failed only when no pair was removed."""
    require_user_manager(ctx.user, "manage user groups")
    user_ids = _id_list(ctx.details, "USERIDS")
    group_ids = _id_list(ctx.details, "USERGROUPIDS")
    results = [_remove_pair(ctx, user_id, group_id) for user_id in user_ids for group_id in group_ids]
    removed = sum(1 for item in results if item["status"] == SUCCESS)
    if removed == 0:
        return Reply(FAILED, "No user was removed from a user group", {"RESULT": results})
    return success(f"{removed} of {len(results)} users removed from user groups", {"RESULT": results})


@endpoint("DELETE", "/userGroup", op="DELETE_USERGROUP", builds={"A": 12230, "B": 6000})
def delete_user_groups(ctx):
    """``details.userGroupIds`` (lower-case details; a list of numbers). Details is keyed by
    group id, each {message, status, statusCode}: 20000 when deleted, Failed with 46000 for
    an invalid id. The shares and certificate shares given to the group go with it (``core.removals``).
    The result is Failed only when no group was deleted."""
    require_user_manager(ctx.user, "delete user groups")
    group_ids = ctx.details.get("userGroupIds")
    if not isinstance(group_ids, list) or not group_ids:
        raise Failure("userGroupIds must be a non-empty list of user group ids")
    outcomes = {}
    for raw_id in group_ids:
        group_id = str(raw_id)
        group = ctx.store.get(USER_GROUP, group_id)
        if group is None:
            outcomes[group_id] = {
                "message": f"Invalid user group ID {group_id}",
                "status": FAILED,
                "statusCode": INVALID_GROUP_CODE,
            }
            continue
        remove(ctx.store, USER_GROUP, group)
        outcomes[group_id] = {
            "message": f"User group {group['name']} has been deleted successfully",
            "status": SUCCESS,
            "statusCode": SUCCESS_CODE,
        }
    deleted = sum(1 for outcome in outcomes.values() if outcome["status"] == SUCCESS)
    if deleted == 0:
        return Reply(FAILED, "No user group was deleted", outcomes)
    return success(f"{deleted} of {len(outcomes)} user groups deleted", outcomes)


@endpoint("GET", "/userGroup", op="GET_USERGROUP(S)", builds={"B": 6320}, style=REST_OPERATION_NAME)
def list_user_groups(ctx):
    """Optional ``details``: limit, startIndex, searchValue, searchColumn, searchOperator
    (see ``core.list_search``)."""
    require_user_manager(ctx.user, "list user groups")
    items = [user_group_item(group) for group in ctx.store.all(USER_GROUP)]
    page, total = search_page(
        ctx.details, items, GROUP_SEARCH_COLUMNS, "userGroupName", lambda item, column: item[column]
    )
    return success("User groups fetched successfully", page, totalRows=total)


@admin_blueprint.post("/user-groups")
def create_user_group():
    """{"userGroupName": ..., "description": ...} adds a user group and answers its list item."""
    document = request.get_json(silent=True)
    document = document if isinstance(document, dict) else {}
    name, description = document.get("userGroupName"), document.get("description", "")
    if not isinstance(name, str) or not name.strip() or not isinstance(description, str):
        return jsonify({"error": 'expected {"userGroupName": "<name>", "description": "<text>"}'}), 400
    store = current_simulator().store
    with store.transaction():
        return jsonify(user_group_item(add_user_group(store, name, description))), 201


def _id_list(details, key):
    """A non-empty list of whole numbers (numeric strings tolerated), as ints."""
    value = details.get(key)
    if not isinstance(value, list) or not value or not all(str(item).isdigit() for item in value):
        raise Failure(f"{key} must be a non-empty list of numeric ids")
    return [int(item) for item in value]


def _remove_pair(ctx, user_id, group_id):
    item = {"USERID": user_id, "USERGROUPID": group_id}
    group = ctx.store.get(USER_GROUP, str(group_id))
    user = ctx.store.get(USER, str(user_id))
    if group is None:
        return {**item, "message": f"User group with ID {group_id} does not exist", "status": FAILED}
    if user is None:
        return {**item, "message": f"User with ID {user_id} does not exist", "status": FAILED}
    if user["id"] not in group["member_ids"]:
        return {
            **item,
            "message": f"User {user['name']} does not exist in user group {group['name']}",
            "status": FAILED,
        }
    group["member_ids"].remove(user["id"])
    ctx.store.put(USER_GROUP, group["id"], group)
    return {
        **item,
        "message": f"User {user['name']} has been removed from user group {group['name']}",
        "status": SUCCESS,
    }
