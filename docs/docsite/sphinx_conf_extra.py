# Appended by `make docs` to the conf.py that `antsibull-docs sphinx-init` writes.
#
# The generated plugin pages refer to a few pages of the ansible-core documentation through intersphinx, whose
# inventory would be downloaded at build time. The site builds offline and with warnings as errors, so this writes
# a small inventory of exactly those targets, linking to the same pages of docs.ansible.com. A page that starts to
# refer to another target fails the build ("undefined label"); add the target below.
import os as _os
import zlib as _zlib

_ANSIBLE_DOCS = "https://docs.ansible.com/projects/ansible/devel/"
_ANSIBLE_TARGETS = [
    # name, domain:role, page#anchor, title
    ("action_plugins", "std:label", "plugins/action.html#action-plugins", "Action plugins"),
    (
        "ansible_configuration_settings",
        "std:label",
        "reference_appendices/config.html#$",
        "Ansible Configuration Settings",
    ),
    ("common_return_values", "std:label", "reference_appendices/common_return_values.html#$", "Return Values"),
    (
        "ansible_collections.ansible.builtin.assert_module",
        "std:label",
        "collections/ansible/builtin/assert_module.html",
        "assert",
    ),
    (
        "ansible_collections.ansible.builtin.file_module",
        "std:label",
        "collections/ansible/builtin/file_module.html",
        "file",
    ),
    (
        "ansible_collections.ansible.builtin.get_url_module",
        "std:label",
        "collections/ansible/builtin/get_url_module.html",
        "get_url",
    ),
    (
        "ansible_collections.ansible.builtin.set_fact_module",
        "std:label",
        "collections/ansible/builtin/set_fact_module.html",
        "set_fact",
    ),
    (
        "ansible_collections.community.crypto.openssl_csr_module",
        "std:label",
        "collections/community/crypto/openssl_csr_module.html",
        "openssl_csr",
    ),
    ("ANSIBLE_CACHE_PLUGIN", "std:envvar", "reference_appendices/config.html#envvar-$", "-"),
    ("ANSIBLE_CACHE_PLUGIN_CONNECTION", "std:envvar", "reference_appendices/config.html#envvar-$", "-"),
    ("ANSIBLE_CACHE_PLUGIN_PREFIX", "std:envvar", "reference_appendices/config.html#envvar-$", "-"),
    ("ANSIBLE_CACHE_PLUGIN_TIMEOUT", "std:envvar", "reference_appendices/config.html#envvar-$", "-"),
]


def _write_ansible_inventory(path):
    header = "# Sphinx inventory version 2\n# Project: Ansible\n# Version: devel\n"
    header += "# The remainder of this file is compressed using zlib.\n"
    body = "".join(
        f"{name} {role} -1 {uri.replace('#$', '#' + name.replace('_', '-'))} {title}\n"
        for name, role, uri, title in _ANSIBLE_TARGETS
    )
    with open(path, "wb") as inventory:
        inventory.write(header.encode() + _zlib.compress(body.encode()))


_ANSIBLE_INVENTORY = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "ansible_devel_offline.inv")
_write_ansible_inventory(_ANSIBLE_INVENTORY)
intersphinx_mapping = {"ansible_devel": (_ANSIBLE_DOCS, _ANSIBLE_INVENTORY)}

# sphinx-init's conf.py says "Copyright Ansible contributors", and the theme's top bar links Ansible's blog, forum
# and documentation: the collection's own.
copyright = "credvault.vault contributors"
html_theme_options = {
    "topbar_links": {
        "Source": "https://github.com/credvault/credvault.vault",
        "Issues": "https://github.com/credvault/credvault.vault/issues",
        "Ansible documentation": "https://docs.ansible.com/",
    },
}
