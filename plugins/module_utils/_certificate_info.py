# -*- coding: utf-8 -*-
# Copyright: credvault.vault contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)

"""What ``vault_certificate_info`` returns: the list with the spec's filters, the expiry list, one
certificate's details; every item with ``from_date``, ``expiry_date`` (ISO 8601) and ``days_left``.

"optional filters withExpiryDaysLessThan, withKeyLength, withSignatureAlgorithm (any one or all)" are the
options ``expiring_within_days``, ``key_length`` and ``signature_algorithm``.
"""

from __future__ import annotations

import datetime

from ._api import certificates as certificates_api
from ._certificate_lookup import (
    certificates_named,
    detail_with_dates,
    list_certificates,
    missing_certificate,
    normalized_serial,
    serial_of,
    with_dates,
)
from ._checks import clean_text
from ._errors import VaultInputError, VaultNotFoundError

FILTERS = (
    ("expiring_within_days", "withExpiryDaysLessThan"),
    ("key_length", "withKeyLength"),
    ("signature_algorithm", "withSignatureAlgorithm"),
)


def list_filters(options):
    """The spec's list filters the ``options`` give (``VaultInputError`` for a number below 1 or an empty name)."""
    filters = {}
    for option, key in FILTERS:
        value = options.get(option)
        if value is None:
            continue
        if option == "signature_algorithm":
            value = clean_text(value, option)
        elif value < 1:
            raise VaultInputError("%s must be a positive whole number, not %s" % (option, value))
        filters[key] = value
    return filters


def describe(task):
    """Entry point of ``vault_certificate_info``: what it returns for its options (``task.desired``)."""
    client, options = task.client, task.desired
    today = datetime.datetime.now(datetime.timezone.utc).date()
    filters = list_filters(options)
    if options.get("expiry"):
        if filters or options.get("common_name") is not None:
            raise VaultInputError("expiry lists every certificate: it takes no filter and no common_name")
        items = certificates_api.get_all_ssl_certificates_expiry(client)
        return {"expiry_dates": [with_dates(item, today) for item in items]}
    if options.get("common_name") is None:
        if options.get("serial_number") is not None:
            raise VaultInputError("serial_number selects among the certificates of a common_name: give common_name")
        return {"certificates": [with_dates(item, today) for item in list_certificates(client, filters)]}
    common_name = clean_text(options["common_name"], "common_name")
    wanted = normalized_serial(options.get("serial_number"))
    items = certificates_named(client, common_name)
    if wanted is not None:
        items = [item for item in items if serial_of(item) == wanted]
    if filters and items:
        kept = {serial_of(item) for item in list_certificates(client, filters)}
        items = [item for item in items if serial_of(item) in kept]
    if not items:
        # An unlisted certificate may be one this token may not access: the vault's refusal fails the task.
        error = missing_certificate(client, common_name, options.get("serial_number"))
        if not isinstance(error, VaultNotFoundError):
            raise error
    details = []
    if items:
        serial_number = items[0].get("serialNumber") if wanted is not None else None
        serials = {serial_of(item) for item in items}
        for detail in certificates_api.get_certificate_details(client, common_name, serial_number):
            endpoint = detail.get("endpoint") if isinstance(detail.get("endpoint"), dict) else {}
            if _detail_serial(endpoint) in serials:
                details.append(detail_with_dates(detail, today))
    return {
        "exists": bool(items),
        "certificates": [with_dates(item, today) for item in items],
        "details": details,
    }


def _detail_serial(endpoint):
    try:
        return normalized_serial(endpoint.get("serial"))
    except VaultInputError:
        return None
