"""The simulator's core: the framework every area uses, and what more than one area reads.

Framework: ``app`` (the Flask application and the request pipeline), ``registry``
(the ``@endpoint`` table, the router, the operation observers), ``styles`` and
``replies`` (what a handler answers and its response shape), ``inputs``
(INPUT_DATA), ``context``, ``simulator``, ``config``, ``store`` (generic JSON
records in SQLite), ``randomness`` and ``seeded_keys`` (``--seed``), ``request_log``,
``faults``, ``admin`` (the ``/__simulator`` blueprint), ``tls``, ``server`` and
``timefmt``.

Shared vault model: ``records`` (every record kind, defined once), ``finders``
(records by id or name, failing with the vault's messages), ``removals`` (deletes
that cascade, driven by the areas' removal rules), ``access`` and ``shares`` (who
may reach what), ``groups`` and ``group_criteria`` (group memberships access
follows), ``tenancy`` (organizations), ``authentication`` (users' AUTHTOKENs and
the built-in admin), ``password_policies``, ``reason_and_ticket`` and
``list_search``.

The core imports nothing from ``vault_simulator.areas`` except, in ``app``, the
package itself, which registers every area.
"""
