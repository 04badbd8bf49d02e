#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_remote_password_reset
short_description: Configure remote password reset for Linux resources of the credential vault
version_added: 0.4.0
description:
  - Configures how the vault resets the passwords of the accounts of Linux resources on the hosts themselves
    (C(CONFIGURE REMOTE PASSWORD RESET)) - how it connects (O(mode), O(port), O(landing_server)), which account
    logs in (O(login_account), or O(domain_account) of O(domain_resource)), how it authenticates
    (O(authentication)) and how it becomes root (O(elevation), O(root_account)). Afterwards a password change with
    reset type V(REMOTE) (M(credvault.vault.vault_account_password)) also sets the password on the host.
  - One request configures every resource of O(resources) alike. The vault answers one result per resource
    (RV(results)); the task fails naming each resource whose result is not a success, after the others were
    configured.
  - The names in O(resources), O(domain_resource) and O(domain_account) are resolved to ids with reads before the
    request; a name the vault does not know fails the task before anything is sent, naming it. In check mode a
    missing one is taken as created by an earlier task of the run, with a warning, and its id is V(null) in RV(sent).
  - Each resource is read before the request too (its type and accounts); a resource that is not of type V(Linux),
    or that has no O(login_account) (with O(resource_identifier=linux)) or no O(root_account) (with
    O(elevation=su)), fails the task before anything is sent, naming every such resource. In check mode this is a
    warning.
  - B(What changed means.) The API has no call that reads a remote-reset configuration back, so the module cannot
    compare it with the task. Every run that sends the request reports C(changed), even when the vault already had
    this configuration. In check mode nothing is sent (only the reads that resolve names) and the task reports
    C(changed) with what it would send. To configure only when something changed, keep a record of what was sent
    (RV(sent)) and run the task when it differs, as the role C(credvault.vault.linux_remote_reset) does.
  - Edition A from build 11200, edition B from build 5100; with O(build) set, an older vault is refused before
    anything is sent.
author:
  - Credvault Maintainers (@credvault)
options:
  resources:
    description:
      - Names of the Linux resources to configure (C(RESOURCEIDS), sent as their ids). At least one.
      - Duplicate names are sent once.
    type: list
    elements: str
    required: true
  mode:
    description: How the vault connects to the resource (C(REMOTEMODE)).
    type: str
    choices: [ssh, telnet]
    default: ssh
  port:
    description:
      - The port the vault connects to (C(LINUX_SSHTELNETPORT)), from 1 to 65535.
      - When not set, nothing is sent and the vault uses its own default (22 for SSH, 23 for telnet in the
        collection's simulator; the spec states none).
    type: int
  user_prompt:
    description: The shell prompt of the login account the vault waits for (C(LINUX_USERPROMPT)), for example V($).
    type: str
  root_prompt:
    description: The shell prompt of the root account the vault waits for (C(LINUXROOTUSERPROMPT)), for example V(#).
    type: str
  landing_server:
    description: The landing (jump) server the vault connects through (C(LINUX_LANDINGSERVER)).
    type: str
  resource_identifier:
    description:
      - Which account logs in (C(RESOURCEIDENTIFIER)).
      - V(linux) - the account O(login_account) of each resource, which must exist there.
      - V(others) - the account O(domain_account) of the resource O(domain_resource), one account for every
        resource (a directory account, say).
    type: str
    choices: [linux, others]
    default: linux
  domain_resource:
    description:
      - Name of the resource that holds O(domain_account) (C(WDRESOURCEID), sent as its id).
      - Required with O(resource_identifier=others), refused otherwise.
    type: str
  domain_account:
    description:
      - Name of the account of O(domain_resource) that logs in (C(WDACCOUNTID), sent as its id).
      - Required with O(resource_identifier=others), refused otherwise.
    type: str
  login_account:
    description:
      - Name of the account that logs in to each resource (C(REMOTELOGINACCOUNT)); an account of each resource,
        whose password (O(authentication=password)) or associated SSH key (O(authentication=key)) the vault uses.
      - Required with O(resource_identifier=linux).
    type: str
  authentication:
    description:
      - How the login account authenticates (C(AUTHENTICATION)) - V(password) sends C(passauth) (its password
        stored in the vault), V(key) sends C(keyauth) (an SSH key of the vault associated with the account on the
        resource, see M(credvault.vault.vault_ssh_key_association)).
    type: str
    choices: [password, key]
    default: password
  elevation:
    description: How the login account becomes root to set passwords (C(ELEVATIONTYPE)).
    type: str
    choices: [su, sudo]
    default: sudo
  root_account:
    description:
      - Name of the account of each resource that O(elevation=su) switches to, with its password stored in the
        vault (C(ROOTACCOUNT)). Required with O(elevation=su).
    type: str
  resource_type:
    description:
      - The type of the resources (C(RESOURCETYPE)). Remote password reset is for Linux resources; any other value
        is refused before anything is sent (the vault refuses the whole request for another type).
    type: str
    default: Linux
  remove_enter:
    description: Whether the vault leaves out the Enter key after the commands it types (C(REMOVEENTER)).
    type: bool
    default: false
attributes:
  idempotent:
    description: A second run with the same options reports no change and sends only reads.
    support: none
    details:
      - The vault cannot report a remote-reset configuration, so every run that sends reports a change.
extends_documentation_fragment:
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
notes:
  - The diff has nothing before (the configuration cannot be read) and after it the input that is sent, as RV(sent).
  - The request holds no secret - accounts are named, their passwords and keys stay in the vault.
  - A failed resource does not undo the others - the vault configures each resource on its own.
seealso:
  - module: credvault.vault.vault_account_password
  - module: credvault.vault.vault_ssh_key_association
  - module: credvault.vault.vault_resource
"""

EXAMPLES = r"""
- name: Remote password reset of two Linux resources
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: The vault logs in over SSH as deploy with its stored password and uses sudo
      credvault.vault.vault_remote_password_reset:
        resources: [web-01, web-02]
        port: 2222
        login_account: deploy
        user_prompt: "$"
      register: configured

    - name: Show the result of each resource
      ansible.builtin.debug:
        msg: "{{ configured.results | map(attribute='status') | list }}"

    - name: Log in with the SSH key associated with deploy and switch to root with su
      credvault.vault.vault_remote_password_reset:
        resources: [web-01]
        login_account: deploy
        authentication: key
        elevation: su
        root_account: root
        root_prompt: "#"

    - name: Log in with one account of another resource (a directory account) for both
      credvault.vault.vault_remote_password_reset:
        resources: [web-01, web-02]
        resource_identifier: others
        domain_resource: jump-01
        domain_account: rotator
"""

RETURN = r"""
results:
  description:
    - One item per resource of O(resources), in that order, from the vault's C(CONFIGURATION RESULT).
    - Empty in check mode. Also returned when the task fails because a resource was not configured.
  returned: success, and when a resource was not configured
  type: list
  elements: dict
  contains:
    resource:
      description: Name of the resource.
      type: str
      sample: web-01
    resource_id:
      description: Its id (C(RESOURCEID)).
      type: str
      sample: "12"
    status:
      description: The vault's C(STATUS) text for it; V(null) when the answer did not mention the resource.
      type: str
      sample: Remote password reset configured successfully
    success:
      description: Whether C(STATUS) reports the resource configured (it says success and no word of failure).
      type: bool
      sample: true
  sample:
    - resource: web-01
      resource_id: "12"
      status: Remote password reset configured successfully
      success: true
sent:
  description:
    - The remote-reset input (Details) the run sent, or in check mode would send, with the spec's defaults filled
      in. It holds no secret.
    - Beside the ids it carries their names, which are not sent - C(RESOURCENAMES) (in the order of
      C(RESOURCEIDS)) and, with O(resource_identifier=others), C(WDRESOURCENAME) and C(WDACCOUNTNAME).
    - Also returned when the task fails because a resource was not configured.
  returned: success, and when a resource was not configured
  type: dict
  sample:
    REMOTEMODE: ssh
    LINUX_SSHTELNETPORT: "2222"
    LINUX_USERPROMPT: $
    RESOURCEIDENTIFIER: linux
    REMOTELOGINACCOUNT: deploy
    AUTHENTICATION: passauth
    ELEVATIONTYPE: sudo
    RESOURCEIDS: ["12", "13"]
    RESOURCENAMES: [web-01, web-02]
    RESOURCETYPE: Linux
    REMOVEENTER: "false"
"""

from ansible_collections.credvault.vault.plugins.module_utils import _remote_password_reset
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule


def argument_spec():
    return {
        "resources": {"type": "list", "elements": "str", "required": True},
        "mode": {"type": "str", "choices": list(_remote_password_reset.MODES), "default": "ssh"},
        "port": {"type": "int"},
        "user_prompt": {"type": "str"},
        "root_prompt": {"type": "str"},
        "landing_server": {"type": "str"},
        "resource_identifier": {"type": "str", "choices": list(_remote_password_reset.IDENTIFIERS), "default": "linux"},
        "domain_resource": {"type": "str"},
        "domain_account": {"type": "str"},
        "login_account": {"type": "str"},
        "authentication": {
            "type": "str",
            "choices": list(_remote_password_reset.AUTHENTICATIONS),
            "default": "password",
        },
        "elevation": {"type": "str", "choices": ["su", "sudo"], "default": "sudo"},
        "root_account": {"type": "str"},
        "resource_type": {"type": "str", "default": "Linux"},
        "remove_enter": {"type": "bool", "default": False},
    }


def main():
    VaultModule(argument_spec()).run(_remote_password_reset.converge)


if __name__ == "__main__":
    main()
