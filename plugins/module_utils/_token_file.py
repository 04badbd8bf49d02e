# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""The API token read from a file (``auth_token_file``), so that it is in no option value and no environment.

The file is read each time a client is made (a task, a lookup, an inventory parse, an event source start), never
kept elsewhere. It must be a regular file (a symbolic link to one is followed) that only its owner can read: mode
0600 or 0400, as AWX's and Automation Platform's file injectors write it. Messages name the path, never the content.
"""

from __future__ import annotations

import os
import stat

from ._errors import VaultConfigError

# A token is a few dozen characters; a larger file is not a token file.
MAX_TOKEN_FILE_BYTES = 64 * 1024


def read_token_file(path):
    """The token in the file at ``path``, surrounding whitespace removed; ``VaultConfigError`` says why not."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise VaultConfigError("auth_token_file %s does not exist" % path) from None
    except OSError as exc:
        raise VaultConfigError("auth_token_file %s cannot be read: %s" % (path, exc.strerror)) from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise VaultConfigError("auth_token_file %s is not a regular file" % path)
        if status.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise VaultConfigError(
                "auth_token_file %s can be read or written by others than its owner (mode %04o): "
                "make it readable by its owner only (chmod 600)" % (path, stat.S_IMODE(status.st_mode))
            )
        content = os.read(fd, MAX_TOKEN_FILE_BYTES + 1)
    except OSError as exc:
        raise VaultConfigError("auth_token_file %s cannot be read: %s" % (path, exc.strerror)) from None
    finally:
        os.close(fd)
    if len(content) > MAX_TOKEN_FILE_BYTES:
        raise VaultConfigError("auth_token_file %s is larger than a token file can be (64 KiB)" % path)
    try:
        token = content.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise VaultConfigError("auth_token_file %s is not text (UTF-8)" % path) from None
    if not token:
        raise VaultConfigError("auth_token_file %s is empty" % path)
    return token
