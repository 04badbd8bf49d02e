# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""Deploying a stored SSL certificate to the servers the vault knows (``DeployCertificate``).

What the API offers, and what that means here:

- ``/deployCertificate`` (A 11300 / B 5300) takes ``common_name``,
  ``serial_number`` and an optional ``serverName``; without it "the
  certificate is deployed to all stored servers". It answers ``deployStatus``,
  a list of ``{server, message, status}``, and ``totalRows``.
- Deploying is an action: nothing reads back what is installed where in a way
  that tells whether this very deployment is needed, so every run sends it and
  reports ``changed``; check mode sends nothing but still resolves the
  certificate, so a certificate that does not exist fails in check mode too.
- The certificate is resolved with ``GetAllSSLCertificates`` first
  (``_certificate_lookup.select_certificate``): an unknown or ambiguous common name
  fails before anything is sent, and the call then carries the serial number
  the vault lists.
- ``deployStatus`` comes from the network: entries that are not objects are
  skipped (with a warning), missing fields become None. A server whose status
  is not ``success`` (any case) fails the task naming it and quoting the
  vault's message; the servers deployed to stay deployed, and the task reports
  changed.
"""

from __future__ import annotations

from ._api import certificates as certificates_api
from ._api._declare import require
from ._certificate_lookup import certificate_label, missing_certificate, normalized_serial, select_certificate, selector
from ._checks import clean_text
from ._errors import VaultAPIError

OPERATION = "DeployCertificate"


class DeployError(VaultAPIError):
    """Some servers were not deployed to; the failed result carries ``deploy_status`` as well."""

    def __init__(self, message, deploy_status, **kwargs):
        super().__init__(message, **kwargs)
        self.deploy_status = deploy_status

    def to_result(self):
        return dict(super().to_result(), deploy_status=self.deploy_status)


def validate(desired):
    """Refuse, before any request, what the vault would refuse: names with surrounding spaces, serials not hex."""
    clean_text(desired.get("common_name"), "common_name")
    normalized_serial(desired.get("serial_number"))
    if desired.get("server") is not None:
        clean_text(desired["server"], "server")


def read_statuses(value):
    """``(statuses, skipped)``: the ``{server, message, status}`` objects of ``deployStatus`` (other keys dropped,
    missing ones None), and how many entries were not objects."""
    if not isinstance(value, list):
        return [], 0 if value is None else 1
    statuses, skipped = [], 0
    for entry in value:
        if not isinstance(entry, dict):
            skipped += 1
            continue
        statuses.append({key: _text(entry.get(key)) for key in ("server", "message", "status")})
    return statuses, skipped


def succeeded(status):
    return str(status.get("status") or "").lower() == "success"


def failure_text(status):
    """``<server> (status <status>: <the vault's message>)``."""
    server = status.get("server") or "a server the vault did not name"
    return "%s (status %s: %s)" % (server, status.get("status"), status.get("message") or "no message given")


def converge(task):
    """Entry point of ``vault_certificate_deploy``: deploy as ``task.desired`` says. Every run sends the deployment
    (check mode: would), recorded in ``task.tracker`` as a change; returns ``certificate``, ``server`` and
    ``deploy_status``."""
    client, desired, tracker = task.client, task.desired, task.tracker
    require(client, certificates_api.deploy_certificate)
    validate(desired)
    item = select_certificate(client, desired["common_name"], desired.get("serial_number"))
    if item is None:
        raise missing_certificate(
            client, desired["common_name"], desired.get("serial_number"), "; nothing was deployed"
        )
    certificate = selector(item)
    server = desired.get("server")
    values = {"certificate": certificate, "server": server, "deploy_status": []}
    tracker.record("deployment", "not sent", "sent", True)
    if task.check_mode:
        return values
    serial = certificate.get("serial_number")
    response = certificates_api.deploy_certificate(
        client, certificate["common_name"], str(serial) if serial else None, server
    )
    statuses, skipped = read_statuses(response.get("deployStatus"))
    values["deploy_status"] = statuses
    if skipped:
        tracker.warn("%s: %d entries of deployStatus were not {server, message, status} objects" % (OPERATION, skipped))
    if not statuses:
        tracker.warn("%s: the vault's answer lists no server: %s" % (OPERATION, response.message or "no message"))
    failed = [status for status in statuses if not succeeded(status)]
    if failed:
        deployed = [str(status.get("server")) for status in statuses if succeeded(status)]
        raise DeployError(
            "%s of %s failed on %d of %d servers: %s%s"
            % (
                OPERATION,
                certificate_label(item),
                len(failed),
                len(statuses),
                "; ".join(failure_text(status) for status in failed),
                "; deployed to %s" % ", ".join(deployed) if deployed else "",
            ),
            statuses,
            operation=response.operation or OPERATION,
            vault_message=response.message,
        )
    return values


def _text(value):
    return None if value is None else str(value)
