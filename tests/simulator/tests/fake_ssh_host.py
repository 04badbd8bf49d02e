"""An in-process SSH server on a loopback port that plays a Linux host for remote password resets.

It accepts password and public-key logins of its ``users``, and emulates the two
commands the simulator runs: ``sudo -S -p <marker> /usr/sbin/chpasswd`` (a sudo
rule per user: ``password`` prompts with the marker and wants the user's
password, ``nopasswd`` prompts for nothing, ``none`` refuses) and
``su - <root> -c /usr/sbin/chpasswd`` on a pty (prompts ``Password: `` and wants
the root user's password; then, like su, flushes the input that came within
``SU_FLUSH_DELAY`` and echoes what is typed). Each chpasswd line received is recorded in
``chpasswd_lines`` and changes ``users``' passwords, unless ``chpasswd_fails``.
"""

import shlex
import socket
import threading
import time

import paramiko

CHPASSWD = "/usr/sbin/chpasswd"
SU_FLUSH_DELAY = 0.3
_HOST_KEY = paramiko.ECDSAKey.generate()


class FakeHost:
    """``FakeHost().start()`` listens on 127.0.0.1:``port``; ``stop()`` ends it."""

    def __init__(self):
        self.users = {}  # name -> password
        self.authorized_keys = {}  # name -> list of paramiko public keys
        self.sudo_rules = {}  # name -> "password" | "nopasswd" | "none"
        self.chpasswd_fails = False
        self.chpasswd_lines = []
        self.logins = []  # (user, "password" | "publickey")
        self.commands = []
        self.connections = 0
        self._listener = None
        self._transports = []

    def start(self):
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def stop(self):
        self._listener.close()
        for transport in self._transports:
            transport.close()

    def _accept(self):
        while True:
            try:
                connection, _address = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            transport = paramiko.Transport(connection)
            transport.add_server_key(_HOST_KEY)
            self._transports.append(transport)
            transport.start_server(server=_Interface(self))


class _Interface(paramiko.ServerInterface):
    def __init__(self, host):
        self.host = host
        self.ptys = set()

    def get_allowed_auths(self, username):
        return "password,publickey"

    def check_auth_password(self, username, password):
        if username in self.host.users and self.host.users[username] == password:
            self.host.logins.append((username, "password"))
            return paramiko.AUTH_SUCCESSFUL
        return paramiko.AUTH_FAILED

    def check_auth_publickey(self, username, key):
        if any(key == known for known in self.host.authorized_keys.get(username, [])):
            self.host.logins.append((username, "publickey"))
            return paramiko.AUTH_SUCCESSFUL
        return paramiko.AUTH_FAILED

    def check_channel_request(self, kind, chanid):
        return paramiko.OPEN_SUCCEEDED if kind == "session" else paramiko.OPEN_FAILED_ADMINISTRATIVELY_PROHIBITED

    def check_channel_pty_request(self, channel, term, width, height, pixelwidth, pixelheight, modes):
        self.ptys.add(channel.get_id())
        return True

    def check_channel_exec_request(self, channel, command):
        command = command.decode()
        self.host.commands.append(command)
        user = channel.get_transport().get_username()
        pty = channel.get_id() in self.ptys
        threading.Thread(target=_Command(self.host, channel, user, pty).run, args=(command,), daemon=True).start()
        return True


class _Command:
    def __init__(self, host, channel, user, pty):
        self.host, self.channel, self.user, self.pty = host, channel, user, pty
        self.pending = b""

    def run(self, command):
        words = shlex.split(command)
        try:
            if words[:2] == ["sudo", "-S"] and words[2] == "-p" and words[4:] == [CHPASSWD]:
                status = self.sudo(words[3])
            elif words[:2] == ["su", "-"] and words[3:] == ["-c", CHPASSWD] and self.pty:
                status = self.su(words[2])
            else:
                self.channel.sendall_stderr(f"sh: 1: {words[0]}: not found\n".encode())
                status = 127
        except OSError:
            status = 255
        self.channel.send_exit_status(status)
        self.channel.close()

    def sudo(self, marker):
        rule = self.host.sudo_rules.get(self.user, "none")
        if rule != "nopasswd":
            for attempt in (1, 2):
                self.channel.sendall_stderr(marker.encode())
                answer = self.line()
                if rule in ("password", "none") and answer == self.host.users.get(self.user):
                    break
                if attempt == 1:
                    self.channel.sendall_stderr(b"Sorry, try again.\n")
            else:
                self.channel.sendall_stderr(b"sudo: 2 incorrect password attempts\n")
                return 1
            if rule == "none":
                self.channel.sendall_stderr(f"{self.user} is not in the sudoers file.\n".encode())
                return 1
        return self.chpasswd(self.rest())

    def su(self, root):
        self.channel.sendall(b"Password: ")
        if self.line() != self.host.users.get(root):
            self.channel.sendall(b"\r\nsu: Authentication failure\r\n")
            return 1
        self.channel.sendall(b"\r\n")
        # Like su: echo back on, then the input that came meanwhile is flushed.
        time.sleep(SU_FLUSH_DELAY)
        self.pending = b""
        return self.chpasswd(self.tty_input())

    def tty_input(self):
        """What a reader gets from a pty in canonical mode with echo, up to Ctrl-D."""
        typed, line = b"", b""
        while True:
            while not self.pending:
                data = self.channel.recv(1024)
                if not data:
                    return typed
                self.pending += data
            char, self.pending = self.pending[:1], self.pending[1:]
            if char == b"\x04":
                return typed
            if char == b"\x7f":
                if line:
                    line = line[:-1]
                    self.channel.sendall(b"\b \b")
                continue
            self.channel.sendall(b"\r\n" if char in b"\r\n" else char)
            line += char
            if char in b"\r\n":
                typed, line = typed + line, b""

    def chpasswd(self, data):
        lines = [line for line in data.decode().replace("\r", "\n").split("\n") if line]
        self.host.chpasswd_lines.extend(lines)
        if self.host.chpasswd_fails:
            name = lines[0].split(":", 1)[0] if lines else ""
            message = (
                f"chpasswd: (user {name}) pam_chauthtok() failed, error:\nAuthentication token manipulation error\n"
            )
            self.channel.sendall_stderr(message.encode())
            return 1
        for line in lines:
            name, password = line.split(":", 1)
            self.host.users[name] = password
        return 0

    def line(self):
        while b"\n" not in self.pending and b"\r" not in self.pending:
            data = self.channel.recv(1024)
            if not data:
                break
            self.pending += data
        for end in (b"\n", b"\r"):
            if end in self.pending:
                line, self.pending = self.pending.split(end, 1)
                return line.decode()
        line, self.pending = self.pending, b""
        return line.decode()

    def rest(self, end=None):
        while end is None or end not in self.pending:
            data = self.channel.recv(1024)
            if not data:
                break
            self.pending += data
        return self.pending.split(end, 1)[0] if end else self.pending
