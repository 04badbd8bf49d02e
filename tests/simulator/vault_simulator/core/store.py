"""The simulator's state: JSON objects by (kind, id), plus id counters, in SQLite.

The schema is generic so that new endpoints need no schema change. Every
access holds one re-entrant lock; ``transaction()`` makes a whole operation
atomic (a ``Failure`` raised half-way leaves nothing behind).
"""

import json
import sqlite3
import threading
from contextlib import contextmanager

_SCHEMA = """
CREATE TABLE IF NOT EXISTS objects (
    kind TEXT NOT NULL, id TEXT NOT NULL, data TEXT NOT NULL, PRIMARY KEY (kind, id));
CREATE TABLE IF NOT EXISTS counters (kind TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS objects_by_resource_and_name
    ON objects (kind, json_extract(data, '$.resource_id'), json_extract(data, '$.name'));
"""

# Store.newest_first's order, for the audit trail (kinds with a ``type`` and a ``time``): a page is read from the index.
_BY_TYPE_AND_TIME = """
CREATE INDEX IF NOT EXISTS objects_by_type_and_time
    ON objects (kind, json_extract(data, '$.type'), json_extract(data, '$.time'), CAST(id AS INTEGER));
"""


class Store:
    def __init__(self, path=None):
        """Open the SQLite file ``path``, or an in-memory database for ``None``."""
        self._db = sqlite3.connect(path or ":memory:", check_same_thread=False, isolation_level=None)
        self._lock = threading.RLock()
        self._depth = 0
        self._db.executescript(_SCHEMA)
        self._db.execute(_BY_TYPE_AND_TIME)

    @contextmanager
    def transaction(self):
        """Hold the lock and commit everything done inside, or roll it all back.

        Transactions nest: an inner one that fails undoes only its own work.
        """
        with self._lock:
            self._depth += 1
            savepoint = f"level{self._depth}"
            self._db.execute(f"SAVEPOINT {savepoint}")
            try:
                yield self
            except BaseException:
                self._db.execute(f"ROLLBACK TO {savepoint}")
                self._db.execute(f"RELEASE {savepoint}")
                raise
            else:
                self._db.execute(f"RELEASE {savepoint}")
            finally:
                self._depth -= 1

    def get(self, kind, object_id):
        with self._lock:
            row = self._db.execute(
                "SELECT data FROM objects WHERE kind = ? AND id = ?", (kind, str(object_id))
            ).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, kind, object_id, data):
        with self._lock:
            self._db.execute(
                "INSERT INTO objects (kind, id, data) VALUES (?, ?, ?) "
                "ON CONFLICT (kind, id) DO UPDATE SET data = excluded.data",
                (kind, str(object_id), json.dumps(data)),
            )

    def delete(self, kind, object_id):
        with self._lock:
            cursor = self._db.execute("DELETE FROM objects WHERE kind = ? AND id = ?", (kind, str(object_id)))
        return cursor.rowcount > 0

    def all(self, kind):
        """Every object of ``kind``, oldest first."""
        with self._lock:
            rows = self._db.execute("SELECT data FROM objects WHERE kind = ? ORDER BY rowid", (kind,)).fetchall()
        return [json.loads(row[0]) for row in rows]

    def where(self, kind, **fields):
        """The objects of ``kind`` whose top-level ``fields`` equal the given strings, oldest first.

        SQLite compares them, so that only the matches are decoded (``store.all`` decodes every
        object of the kind); ``resource_id`` (then ``name``) is indexed.
        """
        if not all(isinstance(value, str) for value in fields.values()):
            raise TypeError("Store.where compares text fields only")
        conditions = "".join(f" AND json_extract(data, '$.{name}') = ?" for name in fields)
        with self._lock:
            rows = self._db.execute(
                f"SELECT data FROM objects WHERE kind = ?{conditions} ORDER BY rowid", (kind, *fields.values())
            ).fetchall()
        return [json.loads(row[0]) for row in rows]

    def newest_first(self, kind, start, limit, since=None, until=None, **fields):
        """One page of the objects of ``kind`` whose top-level ``fields`` equal the given strings and whose ``time``
        (ISO 8601 text) is at or after ``since`` and before ``until`` (None: no bound), newest first (the same time:
        the higher numeric id first): ``limit`` of them from the ``start``-th; and how many match in all.

        SQLite selects, counts, orders and pages them, so that only the page is decoded.
        """
        if not all(isinstance(value, str) for value in fields.values()):
            raise TypeError("Store.newest_first compares text fields only")
        conditions = "".join(f" AND json_extract(data, '$.{name}') = ?" for name in fields)
        arguments = [kind, *fields.values()]
        for bound, operator in ((since, ">="), (until, "<")):
            if bound is not None:
                conditions += f" AND json_extract(data, '$.time') {operator} ?"
                arguments.append(bound)
        selected = f"FROM objects WHERE kind = ?{conditions}"
        order = "ORDER BY json_extract(data, '$.time') DESC, CAST(id AS INTEGER) DESC"
        with self._lock:
            (total,) = self._db.execute(f"SELECT COUNT(*) {selected}", arguments).fetchone()
            rows = self._db.execute(
                f"SELECT data {selected} {order} LIMIT ? OFFSET ?", (*arguments, limit, start)
            ).fetchall()
        return [json.loads(row[0]) for row in rows], total

    def next_id(self, kind):
        """The next numeric id of ``kind``, as a string ("1", "2", ...)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO counters (kind, value) VALUES (?, 1) ON CONFLICT (kind) DO UPDATE SET value = value + 1",
                (kind,),
            )
            (value,) = self._db.execute("SELECT value FROM counters WHERE kind = ?", (kind,)).fetchone()
        return str(value)

    def close(self):
        with self._lock:
            self._db.close()
