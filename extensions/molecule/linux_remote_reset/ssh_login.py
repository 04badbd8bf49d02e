# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Try one SSH password login: ssh_login.py HOST PORT USER, password in $CVRR_PASSWORD.

Exit status 0: logged in (and ran `true`); 1: authentication refused; 2: any other
error. Prints nothing secret. Used by verify.yml (paramiko is in the venv).
"""

from __future__ import annotations

import os
import sys

import paramiko


def main() -> int:
    host, port, user = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())  # noqa: S507 - a throwaway test server
    try:
        client.connect(
            host,
            port=port,
            username=user,
            password=os.environ["CVRR_PASSWORD"],
            allow_agent=False,
            look_for_keys=False,
            timeout=10,
        )
        _stdin, stdout, _stderr = client.exec_command("true", timeout=10)
        status = stdout.channel.recv_exit_status()
    except paramiko.AuthenticationException:
        print("authentication refused")
        return 1
    except (OSError, paramiko.SSHException) as exc:
        print(f"error: {type(exc).__name__}")
        return 2
    finally:
        client.close()
    print("logged in")
    return 0 if status == 0 else 2


if __name__ == "__main__":
    sys.exit(main())
