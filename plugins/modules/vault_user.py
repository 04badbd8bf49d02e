#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_user
short_description: Manage users and API users of the credential vault
version_added: 0.3.0
description:
  - Create and delete users and API users (C(CREATE_USER), C(DELETE USER)), lock and unlock them (C(LOCK USER),
    C(UNLOCK USER)), reset their two-factor authentication (C(Reset MFA)) and add them to user groups or remove them
    from user groups (C(ADD USER TO USERGROUP), C(REMOVE USER FROM USER_GROUP)).
  - The API has no call that edits a user. Where the vault lists users (C(GET_USER(S)), edition B from build 6320),
    the user's O(role), O(email), O(department), O(location), O(super_admin) and O(api_user) are compared with the
    list item; when one differs, the module fails before writing anything, unless O(recreate=true).
  - O(first_name), O(last_name), O(full_name), O(password_policy), O(password), O(host_name) and O(expiry_date) are
    never reported by the vault. They are sent when the user is created; for an existing user they are not compared,
    and the task warns which of them were given.
  - Where the vault has no user list (C(GET_USER(S)); edition A, edition B before 6320), a user is found by name with
    C(get_USERID), which answers only its id - an existing user is compared by existence only, O(locked) is sent as
    given, and the task warns once what it could not compare.
  - Creating an API user (O(api_user=true)) answers the user's token once, in C(AUTHTOKEN); no later call gives it
    again. The task that creates the user hands it on - written to the file O(token_dest) on the Ansible controller,
    or returned in RV(token), in a result that is censored in the output at any verbosity whatever the task says
    (the registered variable keeps it). See the examples.
  - Whatever the vault could refuse is checked before anything is written - names without surrounding spaces, the
    options an API user is created without, the date format of O(expiry_date), the user groups of O(groups), the
    builds O(reset_mfa) and O(purge_groups) need, and the settings that differ.
author:
  - Credvault Maintainers (@credvault)
options:
  name:
    description:
      - The user name (C(USERNAME)). Required with O(state=present).
      - The vault stores names trimmed, so a name that is empty or has leading or trailing spaces is refused, as are
        such names in O(groups).
    type: str
  user_id:
    description:
      - The id of the user to delete (C(DELETE /user/{user_id})), instead of O(name). Only with O(state=absent).
      - Where the vault lists users, the id is looked up first (C(userId)), so a user that is gone is no change.
        Elsewhere no call finds a user by id - C(DELETE USER) is sent and a refusal counts as "absent", with the
        vault's words in a warning; check mode then reports a change.
    type: str
  state:
    description:
      - Whether the user exists. With V(absent) only O(name) or O(user_id) matter.
    type: str
    choices: [present, absent]
    default: present
  first_name:
    description: First name (C(FIRSTNAME)). Sent on creation only. Not for API users.
    type: str
  last_name:
    description: Last name (C(LASTNAME)). Sent on creation only. Not for API users.
    type: str
  full_name:
    description: Full name (C(FULLNAME)). Sent on creation only.
    type: str
  email:
    description: E-mail address (C(EMAIL)). Compared where the vault lists users; see O(recreate).
    type: str
  password_policy:
    description: Name of the password policy of the user's own password (C(POLICY)). Sent on creation only.
    type: str
  role:
    description:
      - The user's role (C(ROLE)), for example V(Password User), V(Administrator) or V(Privileged Administrator),
        the names the spec shows; the complete list is the vault's. Not given, the vault chooses.
      - Compared where the vault lists users; see O(recreate).
    type: str
  super_admin:
    description: Whether the user is a super administrator (C(ISSUPERADMIN)). Compared where the vault lists users;
      see O(recreate).
    type: bool
  password:
    description:
      - The user's first password (C(PASSWORD)). Sent on creation only; never returned, logged or shown in a diff.
      - Edition A needs it to create a user who is not an API user (refused before any request when O(edition=A)
        is set); edition B creates users without one. Not for API users.
    type: str
  department:
    description: Department (C(DEPARTMENT)). Compared where the vault lists users; see O(recreate).
    type: str
  location:
    description: Location (C(LOCATION)). Compared where the vault lists users; see O(recreate).
    type: str
  host_name:
    description: C(HOSTNAME) of the create-user input. Sent on creation only.
    type: str
  expiry_date:
    description:
      - When the user account expires (C(EXPIRYDATE)) - a date V(yyyy-mm-dd) (quote it in YAML) or V(NeverExpires).
        Sent on creation only.
    type: str
  api_user:
    description:
      - V(true) creates an API user (C(ISAPIUSER)), whose create-user input has no C(FIRSTNAME), C(LASTNAME) and
        C(PASSWORD) - O(first_name), O(last_name) and O(password) are refused with it, before any request.
      - The creation answers the new user's token once; see O(token_dest) and RV(token).
      - Not given, a new user is not an API user, and an existing user's kind is not compared. Given, it is compared
        with the vault's C(isApiUser) where the vault lists users; see O(recreate).
    type: bool
  token_dest:
    description:
      - Path of a file on the Ansible controller to write the token of the API user into, when the task creates it
        (or recreates it). The file is written with mode C(0600), atomically (a temporary file of that mode in the
        same directory, then renamed), and RV(token_dest) is returned instead of RV(token).
      - A run that creates nothing (the user exists), and check mode, never create or change the file, so an
        existing file keeps the token of the run that created the user.
      - When the user exists and no file is at O(token_dest), the task warns that the user's token is not there - no
        run that finds an existing user can return its token, for instance after the answer to the run that created
        it was lost (the task then failed saying the creation may have been applied). For a new token, delete the user
        (O(state=absent)) and run the task again, or, where the vault lists users, recreate it (O(recreate=true) with
        a setting that differs).
      - Its directory must exist and be writable; that is checked before the module runs, so that a token is not
        lost to a file that cannot be written.
      - Only with O(api_user=true). Not given, the token is returned in RV(token).
    type: path
  locked:
    description:
      - V(true) locks the user (C(LOCK USER)), V(false) unlocks it (C(UNLOCK USER)); not given, it is left as it is.
      - Where the vault lists users, compared with C(isUserLocked) and sent only when it differs. Elsewhere sent on
        every run, and counted as a change.
    type: bool
  reset_mfa:
    description:
      - V(true) resets the user's two-factor authentication (C(Reset MFA)). An action, not a state - it is sent, and
        reported as a change, on every run that sets it.
      - Needs edition A from build 12100 or edition B from build 5400; with O(edition) and O(build) set, an older
        vault is refused before anything is sent.
    type: bool
    default: false
  groups:
    description:
      - Names of user groups the user is added to (C(ADD USER TO USERGROUP)). Each must exist (checked with
        C(GET_USERGROUPID), or in the user group list with O(purge_groups)); the API cannot create user groups.
      - No call reads a user's memberships, so the user is added to each of them on every run; an add counts as a
        change unless the vault answers that the user is a member already. Check mode counts every group and warns.
    type: list
    elements: str
  purge_groups:
    description:
      - With V(true) the user is removed from every other user group of the vault (C(REMOVE USER FROM USER_GROUP),
        one request), so that it is in exactly O(groups). A group it was not in is no change (the vault answers that
        pair Failed, "the user does not exist in the group"); any other refusal fails the task, naming the group.
      - Needs the user group list (C(GET_USERGROUP(S)), edition B from build 6320); elsewhere refused before
        anything is written. In check mode the task cannot tell which groups the user is in, and warns.
    type: bool
    default: false
  recreate:
    description:
      - When the vault's role, e-mail, department, location, super administrator flag or kind (API user or not) of
        the user differ from the task's, V(false) fails before writing anything and says what differs; V(true)
        deletes the user and creates it with the task's settings (the reported settings the task does not give are
        kept). When nothing differs, nothing is recreated.
      - Only where the vault lists users. Recreating gives the user a new id and loses its memberships, shares and
        the settings the vault never reports; O(groups) gives the memberships back. An API user recreated gets a new
        token, handed on as for a creation. A user who is not an API user needs O(first_name) and O(last_name) to be
        recreated.
    type: bool
    default: false
notes:
  - What C(changed) means, where the vault lists users (edition B from build 6320) - a creation, a deletion, a
    recreation, O(locked) that differs from C(isUserLocked), O(reset_mfa), each group of O(groups) the user was not
    a member of, and each group O(purge_groups) removed the user from.
  - What C(changed) means, where it does not (edition A, edition B before 6320) - a creation, a deletion, O(locked)
    whenever it is given, O(reset_mfa), and each group of O(groups) the user was not a member of. A user's settings
    cannot be compared there.
  - A task without O(locked) and O(reset_mfa) is idempotent on both - a second run reports no change and sends only
    reads, and the membership calls of O(groups).
  - Where the vault lists users, the new user is read back right after its creation - a setting the list reports
    otherwise than the task gave (dropped by the vault without a word) fails the task, saying that the user was
    created and what was not applied (an API user's token is handed over as after any failure that follows a
    creation).
  - The token of an API user is a secret. Without O(token_dest) it is in the task's result, which is censored -
    flagged C(_ansible_no_log), so that Ansible hides the whole result (also its diff) in its output, logs and
    callbacks at any verbosity, as for a task with C(no_log), whatever the task says; the registered variable keeps
    the token (set C(no_log) on any task that uses it). With O(token_dest) it never leaves the controller's file.
  - The token is returned only by the run that created the user. When a step after the creation fails (a lock, a
    group), the token is written to O(token_dest); without O(token_dest) the failed task returns no token (a
    failure's message must stay readable), and says so.
  - C(async) is refused - C(async_status) would show the result uncensored.
attributes:
  idempotent:
    support: partial
    details: O(locked) where the vault has no user list, O(reset_mfa) and O(groups) are sent, and reported as a
      change, on every run.
  action:
    description: Runs on the Ansible controller through an action plugin, which writes O(token_dest) there and
      censors a result that holds a token.
    support: full
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.parallel_runs
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
seealso:
  - module: credvault.vault.vault_user_info
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: A person who uses passwords, in the Operators user group
      credvault.vault.vault_user:
        name: jdoe
        first_name: Jane
        last_name: Doe
        email: jdoe@example.com
        role: Password User
        password: "{{ jdoe_first_password }}"
        expiry_date: "2030-12-31"
        groups:
          - Operators

    - name: An API user for CI; its token goes to a file of the controller (mode 0600), never to the output
      credvault.vault.vault_user:
        name: ci-robot
        api_user: true
        role: Administrator
        token_dest: "{{ token_dir }}/ci-robot.token"
      register: ci_robot

    - name: The file was written by this run
      ansible.builtin.debug:
        msg: "The token of ci-robot is in {{ ci_robot.token_dest }}"
      when: ci_robot.token_dest is defined

    - name: An API user whose token the play uses; the output censors the result, the variable keeps the token
      credvault.vault.vault_user:
        name: deploy-robot
        api_user: true
      register: deploy_robot

    - name: Keep the token of deploy-robot (only the run that created the user returns one)
      ansible.builtin.copy:
        content: "{{ deploy_robot.token }}"
        dest: "{{ token_dir }}/deploy-robot.token"
        mode: "0600"
      when: deploy_robot.token is defined
      no_log: true

    - name: Lock a user
      credvault.vault.vault_user:
        name: jdoe
        locked: true

    - name: Delete a user
      credvault.vault.vault_user:
        name: old-robot
        state: absent
"""

RETURN = r"""
user_id:
  description: The user's id after the run; V(null) after a deletion and in check mode when the user would be created.
  returned: success
  type: str
  sample: "12"
user:
  description:
    - The user as the vault's user list describes it (C(GET_USER(S)) item), after the run; in check mode as it is
      before.
    - Empty where the vault has no user list, after a deletion, and in check mode when the user would be created.
  returned: success
  type: dict
  sample:
    userId: 12
    userName: jdoe
    role: Password User
    location: Paris
    department: Operations
    email: jdoe@example.com
    trustScore: N/A
    isApiUser: false
    isSuperAdmin: false
    isTfaEnabled: false
    isUserLocked: false
    isAddonAccessEnabled: false
    isMobileAccessEnabled: false
    dateCreated: "2024-05-02 10:11:12.345"
calls:
  description:
    - The writes the run sent, in order (in check mode, those it would send) - their operation names, with the
      user group of a membership call.
  returned: success
  type: list
  elements: str
  sample: [CREATE_USER, LOCK USER, ADD USER TO USERGROUP Operators]
token:
  description:
    - The token of the API user the run created (C(AUTHTOKEN)). A secret - the result that holds it is censored in
      the output at any verbosity, whatever the task says; the registered variable keeps it.
    - Returned only by a successful run that created (or recreated) the user, and only without O(token_dest).
  returned: when the run created an API user and O(token_dest) is not given
  type: str
  sample: 7E1B4A90-0C6D-4F55-8E52-3B2F7C1D9A04
token_dest:
  description: The absolute path of the file the token of the API user the run created was written to.
  returned: when the run created an API user and O(token_dest) is given
  type: str
  sample: /home/ci/.credvault/ci-robot.token
"""

from ansible_collections.credvault.vault.plugins.module_utils import _user
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "name": {"type": "str"},
        "user_id": {"type": "str"},
        "state": {"type": "str", "choices": ["present", "absent"], "default": "present"},
        "first_name": {"type": "str"},
        "last_name": {"type": "str"},
        "full_name": {"type": "str"},
        "email": {"type": "str"},
        "password_policy": {"type": "str", "no_log": False},
        "role": {"type": "str"},
        "super_admin": {"type": "bool"},
        "password": {"type": "str", "no_log": True},
        "department": {"type": "str"},
        "location": {"type": "str"},
        "host_name": {"type": "str"},
        "expiry_date": {"type": "str"},
        "api_user": {"type": "bool"},
        "token_dest": {"type": "path", "no_log": False},
        "locked": {"type": "bool"},
        "reset_mfa": {"type": "bool", "default": False},
        "groups": {"type": "list", "elements": "str"},
        "purge_groups": {"type": "bool", "default": False},
        "recreate": {"type": "bool", "default": False},
    }


def main():
    VaultModule(
        argument_spec(),
        mutually_exclusive=[("name", "user_id")],
        required_one_of=[("name", "user_id")],
        required_if=[("state", "present", ["name"]), ("purge_groups", True, ["groups"])],
    ).run(_user.converge)


if __name__ == "__main__":
    main()
