# Copyright: credvault maintainers
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""A simulator for the benchmark: started, seeded, counted, slowed down and stopped.

Seeding and counting talk to the simulator with plain ``requests`` (not the
collection's client), so that what is measured is only the measured code.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time

import requests

REST = "/restapi/json/v1"
ACCOUNTS_PER_RESOURCE = 10
SEED_PASSWORD_PREFIX = "Bench-Pw-"
RESOURCE_TYPE = "Linux"


def simulator_executable():
    """The ``vault-simulator`` beside this Python (the venv's), else the one on the PATH."""
    found = os.path.join(os.path.dirname(sys.executable), "vault-simulator")
    return found if os.path.exists(found) else shutil.which("vault-simulator")


def resource_name(index):
    return "bench-%04d" % index


def account_name(index):
    return "acct-%02d" % index


def term_names(count):
    """``count`` accounts as ``(resource, account)``, ten per resource, as a deploy fetches several per host."""
    return [(resource_name(i // ACCOUNTS_PER_RESOURCE), account_name(i % ACCOUNTS_PER_RESOURCE)) for i in range(count)]


def password_of(resource, account):
    return "%s%s-%s" % (SEED_PASSWORD_PREFIX, resource, account)


class Simulator:
    """One ``vault-simulator`` process; ``info`` is its ready line (url, token, ca_path, edition, build)."""

    def __init__(self, executable, extra_args=()):
        command = [executable, "--seed", "7", *extra_args]
        self.process = subprocess.Popen(  # pylint: disable=consider-using-with  # stopped by stop()
            command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("vault-simulator did not start")
        self.info = json.loads(line)
        self.session = requests.Session()
        self.session.headers["AUTHTOKEN"] = self.info["token"]
        # Given with each request: REQUESTS_CA_BUNDLE in the environment would override Session.verify.

    def stop(self):
        self.session.close()
        self.process.terminate()
        self.process.wait(timeout=10)

    def _admin(self, method, path, **kwargs):
        response = self.session.request(
            method, self.info["url"] + "/__simulator" + path, timeout=30, verify=self.info["ca_path"], **kwargs
        )
        response.raise_for_status()
        return response.json() if response.content else None

    def request_count(self):
        """How many vault requests the simulator has served (its request log)."""
        return len(self._admin("GET", "/requests"))

    def operations(self):
        return [entry["operation"] for entry in self._admin("GET", "/requests")]

    def clear_requests(self):
        self._admin("DELETE", "/requests")

    def connections(self):
        """Connections the simulator accepted so far, or None when it does not count them."""
        try:
            return self._admin("GET", "/stats").get("connections")
        except requests.RequestException:
            return None

    def set_latency(self, seconds):
        rules = [{"kind": "latency", "seconds": seconds}] if seconds else []
        self._admin("PUT", "/faults", json=rules)

    def add_audit_records(self, count):
        """Append ``count`` records to the resource audit trail at once (a burst); their AUDITIDs, oldest first."""
        added = self._admin("POST", "/audit-records", json={"count": count})
        return [str(number) for number in range(int(added["first"]), int(added["last"]) + 1)]

    def _vault(self, method, path, details):
        form = {"INPUT_DATA": json.dumps({"operation": {"Details": details}})}
        response = self.session.request(
            method, self.info["url"] + REST + path, data=form, timeout=60, verify=self.info["ca_path"]
        )
        body = response.json()
        if body["operation"]["result"]["status"] != "Success":
            raise RuntimeError("seeding %s failed: %s" % (path, body["operation"]["result"].get("message")))
        return body

    def resource_id(self, name):
        response = self.session.get(
            self.info["url"] + REST + "/resources/resourcename/" + name, timeout=30, verify=self.info["ca_path"]
        )
        return response.json()["operation"]["Details"]["RESOURCEID"]

    def seed(self, pairs, password=password_of):
        """Create every resource and account of ``pairs`` (resource, account), passwords by ``password``."""
        by_resource = {}
        for resource, account in pairs:
            by_resource.setdefault(resource, []).append(account)
        for resource, accounts in by_resource.items():
            first, rest = accounts[0], accounts[1:]
            self._vault(
                "POST",
                "/resources",
                {
                    "RESOURCENAME": resource,
                    "ACCOUNTNAME": first,
                    "RESOURCETYPE": RESOURCE_TYPE,
                    "PASSWORD": password(resource, first),
                    "OWNERNAME": "admin",
                },
            )
            if rest:
                listed = [{"ACCOUNTNAME": name, "PASSWORD": password(resource, name)} for name in rest]
                self._vault("POST", "/resources/%s/accounts" % self.resource_id(resource), {"ACCOUNTLIST": listed})

    def round_trip(self, samples=20):
        """The median wall time of one kept-alive request that does no work in the vault: the floor of one
        request per secret."""
        url = self.info["url"] + REST + "/resources/resourcename/" + resource_name(0)
        times = []
        for dummy in range(samples):
            start = time.perf_counter()
            self.session.get(url, timeout=30, verify=self.info["ca_path"])
            times.append(time.perf_counter() - start)
        return sorted(times)[len(times) // 2]
