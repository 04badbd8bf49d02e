# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The build of the wheel, with the collection's client in it.

The plugin reaches the vault with the collection's own client (``plugins/module_utils``: ``_account``, ``_client``,
``_errors``, ``_settings`` and the modules they import, found by their relative imports). At build time those files are copied
from the collection this package sits in (``extensions/awx_credential_plugin``) into the package
``credvault_awx._vault``, so that the wheel needs no collection and no ansible-core, and the client keeps one source,
the collection's. An sdist carries the copy it was built with.
"""

from __future__ import annotations

import ast
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE_UTILS = os.path.normpath(os.path.join(HERE, "..", "..", "plugins", "module_utils"))
PACKAGE = os.path.join("credvault_awx", "_vault")
# What the plugin calls (credvault_awx._client_modules); the modules these import come with them.
ROOTS = ("_account", "_client", "_errors", "_settings")
HEADER = (
    '"""The credvault.vault collection\'s client (plugins/module_utils), copied here when this wheel was built '
    '(setup.py)."""\n'
)


def closure(directory, roots):
    """``roots`` and every module of ``directory`` they import relatively, at any depth, as paths relative to
    ``directory`` without ``.py`` (``_api/accounts``); a package's ``__init__`` comes with any module of it."""
    found, pending = set(), list(roots)
    while pending:
        name = pending.pop()
        if name in found:
            continue
        found.add(name)
        with open(os.path.join(directory, name + ".py"), encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
        package = name.split("/")[:-1]
        if package:
            pending.append("/".join(package + ["__init__"]))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                pending.extend(_imported(directory, package[: len(package) - node.level + 1], node))
    return sorted(found)


def _imported(directory, package, node):
    """The modules a relative ``from ... import ...`` of ``package`` names: the module itself, or the modules of the
    package it names (``from ._api import accounts``)."""
    base = package + (node.module.split(".") if node.module else [])
    if os.path.isfile(os.path.join(directory, *base) + ".py"):
        return ["/".join(base)]
    names = ["/".join(base + [alias.name]) for alias in node.names]
    return ["/".join(base + ["__init__"])] + [
        name for name in names if os.path.isfile(os.path.join(directory, name) + ".py")
    ]


def write_client(target):
    """The collection's client modules in the package directory ``target``; nothing to do where the collection is
    not beside this package (a build from an sdist, which holds them already)."""
    if not os.path.isdir(MODULE_UTILS):
        if not os.path.isfile(os.path.join(target, "_client.py")):
            raise RuntimeError("neither the collection's plugins/module_utils nor a copy of its client was found")
        return
    shutil.rmtree(target, ignore_errors=True)
    os.makedirs(target)
    for name in closure(MODULE_UTILS, ROOTS):
        os.makedirs(os.path.dirname(os.path.join(target, name)), exist_ok=True)
        shutil.copyfile(os.path.join(MODULE_UTILS, name + ".py"), os.path.join(target, name + ".py"))
    with open(os.path.join(target, "__init__.py"), "w", encoding="utf-8") as handle:
        handle.write(HEADER)


class BuildPy(build_py):
    def run(self):
        super().run()
        write_client(os.path.join(self.build_lib, PACKAGE))


class Sdist(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        write_client(os.path.join(base_dir, "src", PACKAGE))


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
