# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A private SSH server on 127.0.0.1 that accepts only password logins, and the one unix user it is reached as.

Both change this machine (a user account, an sshd process), so they need root; both are undone on exit. The
system's own sshd, if any, is not touched: this one has its own configuration, host key, port and pid file.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import time

SSHD = "/usr/sbin/sshd"
LOGIN_USER = "cvhb_login"
# Programs run besides sshd, and the Debian package of each.
PROGRAMS = {
    "useradd": "passwd",
    "userdel": "passwd",
    "chpasswd": "passwd",
    "ssh": "openssh-client",
    "ssh-keygen": "openssh-client",
}
FIRST_PASSWORD_MECHANISM = (2, 19)  # before it, Ansible's ssh connection logs in with a password only by sshpass

CONFIG = """\
Port {port}
ListenAddress 127.0.0.1
HostKey {folder}/host_key
PidFile {folder}/sshd.pid
AllowUsers {user}
PasswordAuthentication yes
PubkeyAuthentication no
KbdInteractiveAuthentication no
AuthorizedKeysFile none
UsePAM no
MaxStartups 100
"""


def missing_requirements(ansible_version):
    """What this machine lacks to run the server and log in with a password, as messages (empty: nothing)."""
    missing = []
    if os.geteuid() != 0:
        missing.append("root (it creates the unix user %s and starts a private sshd)" % LOGIN_USER)
    if not os.access(SSHD, os.X_OK):
        missing.append("%s (apt-get install openssh-server)" % SSHD)
    for program, package in PROGRAMS.items():
        if not shutil.which(program, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin"):
            missing.append("%s (apt-get install %s)" % (program, package))
    if ansible_version < FIRST_PASSWORD_MECHANISM and not shutil.which("sshpass"):
        missing.append("sshpass (apt-get install sshpass): ansible-core before 2.19 logs in with a password only by it")
    return missing


class LoginUser:
    """The unix user ``cvhb_login`` with a random password, created on enter and removed on exit."""

    def __init__(self):
        self.name = LOGIN_USER
        self.password = secrets.token_urlsafe(24)

    def __enter__(self):
        try:
            pwd.getpwnam(self.name)
        except KeyError:
            pass
        else:
            raise RuntimeError(
                "the unix user %s exists already (left by an interrupted run?); remove it: userdel -r %s"
                % (self.name, self.name)
            )
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", self.name], check=True)
        subprocess.run(["chpasswd"], input="%s:%s\n" % (self.name, self.password), text=True, check=True)
        return self

    def __exit__(self, *exc_info):
        # The user's SSH sessions end a moment after their clients closed; userdel refuses while they run.
        for dummy in range(20):
            removed = subprocess.run(["userdel", "--remove", self.name], capture_output=True, text=True, check=False)
            if removed.returncode == 0 or "currently used" not in removed.stderr:
                break
            time.sleep(0.5)
        if removed.returncode != 0:
            raise RuntimeError("userdel %s failed: %s" % (self.name, removed.stderr.strip()))


class SshServer:
    """``sshd`` on a free port of 127.0.0.1, in ``folder``; ``known_hosts`` names its key for that port."""

    def __init__(self, folder, user):
        self.folder = folder
        self.user = user
        self.port = None
        self.known_hosts = os.path.join(folder, "known_hosts")
        self.log = os.path.join(folder, "sshd.log")

    def __enter__(self):
        os.makedirs(self.folder, mode=0o700)
        # sshd's privilege separation directory; left in place afterwards, as the system's sshd leaves it.
        os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
        key = os.path.join(self.folder, "host_key")
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "cvhb", "-f", key], check=True)
        self.port = _free_port()
        config = os.path.join(self.folder, "sshd_config")
        with open(config, "w", encoding="utf-8") as handle:
            handle.write(CONFIG.format(port=self.port, folder=self.folder, user=self.user))
        subprocess.run([SSHD, "-f", config, "-E", self.log], check=True)
        _wait_for_banner(self.port)
        with open(key + ".pub", encoding="utf-8") as public, open(self.known_hosts, "w", encoding="utf-8") as handle:
            kind, value = public.read().split()[:2]
            handle.write("[127.0.0.1]:%d %s %s\n" % (self.port, kind, value))
        return self

    def log_tail(self, lines=20):
        with open(self.log, encoding="utf-8", errors="replace") as handle:
            return "".join(handle.readlines()[-lines:])

    def __exit__(self, *exc_info):
        with open(os.path.join(self.folder, "sshd.pid"), encoding="utf-8") as handle:
            pid = int(handle.read())
        os.kill(pid, signal.SIGTERM)
        for dummy in range(50):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
        raise RuntimeError("the private sshd (pid %d) did not stop" % pid)


def close_masters(control_paths):
    """End the ControlPersist masters Ansible's ssh connection left running (and so their sessions)."""
    for path in control_paths:
        if os.path.exists(path):
            subprocess.run(
                ["ssh", "-o", "ControlPath=" + path, "-O", "exit", "127.0.0.1"], capture_output=True, check=False
            )


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for_banner(port, seconds=10):
    deadline = time.monotonic() + seconds
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=2) as connection:
                if connection.recv(64).startswith(b"SSH-2.0-"):
                    return
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the private sshd did not answer on 127.0.0.1:%d" % port)
        time.sleep(0.1)
