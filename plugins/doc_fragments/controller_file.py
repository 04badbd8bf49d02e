# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

from __future__ import annotations


class ModuleDocFragment:
    """Files the action plugins write on the controller (plugins/plugin_utils/_controller_files.py).

    DOCUMENTATION is the required O(dest) of the modules that export a file (a certificate, an SSH or a PGP key);
    ``.key_mode`` adds their O(mode) where O(export_type) chooses the public or the private key (a certificate's mode
    depends on more, so that module writes its own). ``.key_dest`` is the optional O(dest) of the modules that
    return a key unless told to write it (the agent key and the agent install key), with what that O(dest) changes.
    Module options of the same name replace a fragment's, whole.
    """

    DOCUMENTATION = r"""
options:
  dest:
    description:
      - Path of the file to write on the controller. Its directory must exist and be writable, checked before any
        request; an existing directory is refused.
    type: path
    required: true
notes:
  - The module is implemented by an action plugin; C(module_defaults) of the group C(credvault.vault.vault) apply.
"""

    KEY_MODE = r"""
options:
  mode:
    description:
      - The octal permissions of O(dest), such as V('0600') or V('0644'), quoted in YAML (symbolic modes are not
        accepted). An existing O(dest) gets this mode too.
      - A private key (O(export_type=private)) is for its owner alone - a mode that grants the group or others any
        access (V('0640'), V('0644')) is refused before anything is sent; V('0600') or V('0400'). A public key may be
        V('0644').
    type: raw
    default: "0600"
"""

    KEY_DEST = r"""
options:
  dest:
    description:
      - Path of a file on the Ansible controller to write the key into, instead of returning it. Written atomically
        with mode V(0600) from the start (a temporary file in the same directory, synced, then renamed), and only
        when its content differs.
      - Its directory must exist and be writable, checked on the controller before the module runs; an existing
        directory is refused.
      - A failed run leaves the file as it is.
    type: path
attributes:
  diff_mode:
    description: With O(dest), shows the file's state, checksum and mode before and after; never the key.
    support: partial
    details: Without O(dest) there is no diff.
  action:
    description: Runs through an action plugin, which writes O(dest) on the controller.
    support: full
notes:
  - The request to the vault is made where the task runs (the managed host, or the controller with
    C(delegate_to=localhost)); O(dest) is always a file of the controller.
"""
