#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations

DOCUMENTATION = r"""
module: vault_account_file
short_description: Download the file of an account in the credential vault
version_added: 0.2.0
description:
  - Downloads the file of an account of a File Store or License Store resource, or the file of a file additional
    field of an account or a resource, to O(dest) (C(GET .../downloadfile)).
  - The module runs on the managed host, like M(ansible.builtin.get_url); the host reaches the vault and the file
    is written there. O(ca_path) is a path on that host, which needs the Python library C(requests).
  - The vault gives no checksum of a file, so every run downloads it and compares its SHA-256 digest with O(dest);
    O(dest) is replaced, atomically, only when it differs. Check mode downloads to compare but writes nothing.
  - The vault's answer is the file whatever its bytes, even an empty file or one that holds JSON, when it says it is
    a file (a C(Content-Disposition) of C(attachment), or the type C(application/octet-stream)).
  - The file's content is never returned, logged or shown in a diff.
author:
  - Credvault Maintainers (@credvault)
options:
  resource:
    description: Name of the resource that holds the account.
    type: str
    required: true
  account:
    description: Name of the account.
    type: str
    required: true
  dest:
    description:
      - Path of the file to write on the managed host. Its directory must exist.
      - If O(dest) is an existing directory, the file is written inside it under the name the vault gives it
        (the C(filename) of C(Content-Disposition), its last path component only). The task fails, after the
        download, when the vault gives no name, or one that cannot be a file name (empty, V(.), V(..), control
        characters).
    type: path
    required: true
  custom_field:
    description:
      - Label of a file additional field (C(CUSTOMFIELDLABEL)); downloads the file of that field
        (C(ISCUSTOMFIELD) V(true)) instead of the account's file.
    type: str
  custom_field_type:
    description:
      - Whether O(custom_field) is a field of the account (V(ACCOUNT)) or of its resource (V(RESOURCE))
        (C(CUSTOMFIELDTYPE)). V(ACCOUNT) when not given. Only with O(custom_field).
    type: str
    choices: [ACCOUNT, RESOURCE]
  mode:
    description:
      - The permissions of O(dest), as for M(ansible.builtin.file). The file usually holds a secret, so it is
        readable by its owner only unless told otherwise; an existing O(dest) gets this mode too.
      - A new O(dest) is never readable by others, not even for the instant between its creation and the
        change to O(mode).
    type: raw
    default: "0600"
extends_documentation_fragment:
  - credvault.vault.authorization
  - credvault.vault.connection
  - credvault.vault.attributes
  - credvault.vault.attributes.check_mode
  - credvault.vault.attributes.diff_mode
  - credvault.vault.attributes.idempotent
  - ansible.builtin.files
seealso:
  - module: ansible.builtin.get_url
  - module: credvault.vault.vault_resource
"""

EXAMPLES = r"""
- name: Connection settings once for every task of the block
  module_defaults:
    group/credvault.vault.vault:
      url: "{{ vault_url }}"
      auth_token: "{{ vault_token }}"
      ca_path: "{{ vault_ca_path }}"
  block:
    - name: Install the license file held by a License Store resource
      credvault.vault.vault_account_file:
        resource: product-licenses
        account: license-admin
        dest: "{{ download_dir }}/product.lic"
        mode: "0640"
        reason: Install the product license

    - name: Download the keytab kept in an additional field of an account
      credvault.vault.vault_account_file:
        resource: kdc-01
        account: svc-web
        custom_field: Keytab
        dest: "{{ download_dir }}/svc-web.keytab"

    - name: Download the same license into a directory, under the file name the vault gives it
      credvault.vault.vault_account_file:
        resource: product-licenses
        account: license-admin
        dest: "{{ download_dir }}/licenses"
"""

RETURN = r"""
dest:
  description: Path of the file on the managed host; inside O(dest) when O(dest) is a directory.
  returned: success
  type: str
  sample: /etc/product/product.lic
checksum:
  description: SHA-256 hex digest of the downloaded file.
  returned: success
  type: str
  sample: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08
size:
  description: Size of the downloaded file in bytes.
  returned: success
  type: int
  sample: 1024
"""

import os
import tempfile

from ansible_collections.credvault.vault.plugins.module_utils import _account_file
from ansible_collections.credvault.vault.plugins.module_utils._module import VaultModule
from ansible_collections.credvault.vault.plugins.module_utils._options import authorization_argument_spec

# While the file is created: atomic_move gives a new file 0666 minus the umask before its mode is set.
_PRIVATE_UMASK = 0o077


def argument_spec():
    return {
        "resource": {"type": "str", "required": True},
        "account": {"type": "str", "required": True},
        "dest": {"type": "path", "required": True},
        "custom_field": {"type": "str"},
        "custom_field_type": {"type": "str", "choices": list(_account_file.FIELD_TYPES)},
        **authorization_argument_spec(),
        "mode": {"type": "raw", "default": "0600"},
    }


def main():
    vault = VaultModule(
        argument_spec(), add_file_common_args=True, required_by={"custom_field_type": ("custom_field",)}
    )
    module, params = vault.module, vault.params

    def write(path, content):
        descriptor, staged = tempfile.mkstemp(dir=module.tmpdir)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(content)
        umask = os.umask(_PRIVATE_UMASK)
        try:
            module.atomic_move(staged, path, unsafe_writes=params["unsafe_writes"])
        except Exception as exc:  # atomic_move raises Exception itself
            module.fail_json(msg="could not write %s: %s" % (path, exc))
        finally:
            os.umask(umask)

    def set_file_attributes(result):
        """Owner, group, mode... of the file written (or found current), in ``changed`` and the diff."""
        file_args = module.load_file_common_arguments(params, path=result["dest"])
        changed = module.set_fs_attributes_if_different(file_args, result["changed"], result["diff"])
        return dict(result, changed=changed)

    vault.run(_account_file.converge, finish=set_file_attributes, write_file=write)


if __name__ == "__main__":
    main()
