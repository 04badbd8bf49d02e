"""One remote password reset over SSH: connect, log in, elevate, run chpasswd.

``set_password`` logs in with ``paramiko`` as the login account (a password or
a private key), then sets ``<account>:<new password>`` with ``/usr/sbin/chpasswd``
run as root:

- ``sudo``: ``sudo -S -p <marker> /usr/sbin/chpasswd`` without a pty. When the
  marker shows on stderr, the login account's password answers it; when it does
  not show within ``PROMPT_GRACE`` seconds (a NOPASSWD rule), nothing is sent
  for it. Then the chpasswd line and end of input.
- ``su``: ``su - <root account> -c /usr/sbin/chpasswd`` on a pty; the root
  account's password answers su's password prompt, then (once the pty echoes
  again, see ``_run_su``) the chpasswd line and Ctrl-D.

Everything (connection, login, the command) must finish within ``TIMEOUT``
seconds. Host keys are not checked (targets are loopback addresses only), no
key of the local machine or of an SSH agent is ever offered. Any failure raises
``RemoteError`` whose text never holds a secret: remote output is only quoted
with every secret of the exchange masked.
"""

import secrets
import shlex
import socket
import time

import paramiko

CHPASSWD = "/usr/sbin/chpasswd"
TIMEOUT = 10.0
PROMPT_GRACE = 1.5
PROBE_INTERVAL = 0.2
MASK = "********"
_READ = 4096


class RemoteError(Exception):
    """Why a remote reset failed; safe to show."""


class Login:
    """How to log in: ``user`` with ``password`` or ``key`` (a paramiko PKey); ``password`` also answers sudo."""

    def __init__(self, user, password="", key=None):
        self.user, self.password, self.key = user, password, key


def set_password(addresses, port, login, account, new_password, elevation="sudo", root=None, root_password=""):
    """Set ``account``'s password to ``new_password`` on the first of ``addresses`` that accepts a connection.

    ``elevation`` is ``sudo`` or ``su`` (as ``root`` with ``root_password``).
    """
    secrets_seen = [s for s in (login.password, new_password, root_password) if s]
    deadline = time.monotonic() + TIMEOUT
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    try:
        _connect(client, addresses, port, login, deadline)
        line = f"{account}:{new_password}\n"
        if elevation == "su":
            status, output = _run_su(client, root, root_password, line, deadline)
        else:
            status, output = _run_sudo(client, login.password, line, deadline)
    except TimeoutError:
        raise RemoteError(f"no answer within {TIMEOUT:g} seconds") from None
    except paramiko.SSHException as error:
        if time.monotonic() >= deadline - 0.1:  # paramiko's own timeouts (banner, auth) say it so
            raise RemoteError(f"no answer within {TIMEOUT:g} seconds") from None
        raise RemoteError(f"SSH error: {_masked(str(error), secrets_seen)}") from None
    except OSError as error:
        raise RemoteError(f"SSH error: {_masked(error.strerror or str(error), secrets_seen)}") from None
    finally:
        client.close()
    if status != 0:
        raise RemoteError(_failure(status, output, elevation, login.user, root, secrets_seen))


def _connect(client, addresses, port, login, deadline):
    sock, refused = None, []
    for address in addresses:
        try:
            sock = socket.create_connection((address, port), timeout=_left(deadline))
            break
        except ConnectionRefusedError:
            refused.append(f"{address}:{port}")
        except TimeoutError:
            raise
        except OSError as error:
            raise RemoteError(f"cannot connect to {address}:{port}: {error.strerror or error}") from None
    if sock is None:
        raise RemoteError(f"connection to {', '.join(refused)} refused")
    try:
        client.connect(
            hostname=addresses[0],
            port=port,
            username=login.user,
            password=login.password if login.key is None else None,
            pkey=login.key,
            sock=sock,
            timeout=_left(deadline),
            banner_timeout=_left(deadline),
            auth_timeout=_left(deadline),
            channel_timeout=_left(deadline),
            allow_agent=False,
            look_for_keys=False,
        )
    except paramiko.AuthenticationException:
        how = "password" if login.key is None else "key"
        raise RemoteError(f"authentication of {login.user} with its {how} failed") from None


def _run_sudo(client, password, line, deadline):
    marker = f"[credvault-sudo-{secrets.token_hex(6)}]"
    channel = _exec(client, f"sudo -S -p {shlex.quote(marker)} {CHPASSWD}", deadline, pty=False)
    output = _Output(channel, deadline)
    grace = min(time.monotonic() + PROMPT_GRACE, deadline)
    answer = f"{password}\n" if output.wait_for(marker, grace) else ""
    _send(channel, (answer + line).encode(), end=True)
    return output.exit_status(), output.text().replace(marker, "")


def _run_su(client, root, root_password, line, deadline):
    """su's password prompt, then the chpasswd line once the pty echoes again.

    After reading the password, su turns echo back on and flushes the pty's
    input (what arrived meanwhile is lost). So a probe (a random word erased at
    once, which never reaches a reader) is typed until it shows echoed: the
    flush is then behind, and the chpasswd line follows; its echo shows it taken.
    """
    channel = _exec(client, f"su - {shlex.quote(root)} -c {CHPASSWD}", deadline, pty=True)
    output = _Output(channel, deadline)
    if not output.wait_for("assword", deadline):
        return output.exit_status() or 1, output.text()
    _send(channel, f"{root_password}\n".encode())
    probe = secrets.token_hex(4)
    while not output.wait_for(probe, min(time.monotonic() + PROBE_INTERVAL, deadline)):
        if channel.exit_status_ready():
            return output.exit_status() or 1, output.text()
        _left(deadline)
        _send(channel, (probe + "\x7f" * len(probe)).encode())
    time.sleep(PROBE_INTERVAL / 2)
    _send(channel, line.encode())
    if not output.wait_for(line.rstrip("\n"), deadline):
        return output.exit_status() or 1, output.text()  # never a success when chpasswd did not get the line
    _send(channel, b"\x04")
    return output.exit_status(), output.text()


def _send(channel, data, end=False):
    """Send ``data`` (then end of input) unless the command already ended: its exit status tells why."""
    if channel.exit_status_ready():
        return
    try:
        channel.sendall(data)
        if end:
            channel.shutdown_write()
    except OSError:
        pass


def _exec(client, command, deadline, pty):
    channel = client.get_transport().open_session(timeout=_left(deadline))
    channel.settimeout(_left(deadline))
    if pty:
        channel.get_pty()
    channel.exec_command(command)
    return channel


class _Output:
    """stdout and stderr of a channel, read until a text shows, the command ends or time runs out."""

    def __init__(self, channel, deadline):
        self.channel, self.deadline, self.chunks = channel, deadline, []

    def text(self):
        return b"".join(self.chunks).decode("utf-8", "replace")

    def wait_for(self, needle, until):
        """True once ``needle`` shows; False when the command ended or ``until`` passed first."""
        while needle not in self.text():
            if not self._read(until):
                return needle in self.text()
        return True

    def exit_status(self):
        while self._read(self.deadline):
            pass
        if not self.channel.exit_status_ready():
            raise TimeoutError
        return self.channel.recv_exit_status()

    def _read(self, until):
        """Read what is there; False when nothing more will come (closed) or ``until`` passed."""
        while time.monotonic() < until:
            got = False
            if self.channel.recv_ready():
                self.chunks.append(self.channel.recv(_READ))
                got = True
            if self.channel.recv_stderr_ready():
                self.chunks.append(self.channel.recv_stderr(_READ))
                got = True
            if got:
                return True
            if self.channel.exit_status_ready() and not self.channel.recv_ready():
                return False
            time.sleep(0.01)
        return False


def _failure(status, output, elevation, login_user, root, secrets_seen):
    lines = [line.strip() for line in _masked(output, secrets_seen).splitlines() if line.strip()]
    said = next((line for line in lines if line.startswith("chpasswd:")), None)
    if said:
        return f"{CHPASSWD} failed (exit status {status}): {said[:200]}"
    if elevation == "su":
        said = next((line for line in lines if line.startswith("su:")), "")
        return f"su to {root} failed (exit status {status})" + (f": {said[:200]}" if said else "")
    said = next((line for line in reversed(lines) if "sudo" in line or "Sorry" in line), "")  # the last word
    return f"sudo {CHPASSWD} as {login_user} failed (exit status {status})" + (f": {said[:200]}" if said else "")


def _masked(text, secrets_seen):
    for secret in secrets_seen:
        text = text.replace(secret, MASK)
    return text


def _left(deadline):
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left
