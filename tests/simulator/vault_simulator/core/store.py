"""The simulator's state: JSON objects by (kind, id), plus id counters, in SQLite.

The schema is generic so that new endpoints need no schema change. Every
access holds one re-entrant lock; ``transaction()`` makes a whole operation
atomic (a ``Failure`` raised half-way leaves nothing behind).

A state file (``--state``) is written ahead (SQLite's WAL journal) with
``synchronous=NORMAL``: a commit is not synced to the disk. Whatever a request
committed survives the simulator's process being killed (it is in the file or
the ``-wal`` file beside it, which the next start reads); after a power loss
or a crash of the machine the file is still consistent, but the last
operations committed may be gone (those since SQLite last synced the WAL, at a
checkpoint: about every 1000 pages written, and when the simulator stops).
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
CREATE INDEX IF NOT EXISTS objects_by_name ON objects (kind, json_extract(data, '$.name'));
CREATE INDEX IF NOT EXISTS objects_by_common_name_in_any_case
    ON objects (kind, python_lower(CAST(json_extract(data, '$.common_name') AS BLOB)));
"""
# A state file's journal: written ahead, a commit not synced to the disk (see the module's docstring).
_FILE_PRAGMAS = ("PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL")


def _python_lower(utf8):
    """Python's ``str.lower`` as an SQL function, so that a lookup ignoring case finds what the areas' Python
    comparison would: SQLite's own ``lower`` folds ASCII letters only. It takes the text as bytes (``CAST ... AS
    BLOB``), which any stored text decodes from."""
    return None if utf8 is None else bytes(utf8).decode("utf-8", "replace").lower()


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
        self._db.create_function("python_lower", 1, _python_lower, deterministic=True)
        for pragma in _FILE_PRAGMAS if path else ():
            self._db.execute(pragma)
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

        SQLite finds them, so that only the matches are decoded (``store.all`` decodes every object
        of the kind); ``name`` and ``resource_id`` (then ``name``) are indexed: look records up by
        name with this.
        """
        condition = "json_extract(data, '$.{}') = ?"
        return self._matching(kind, condition, fields, lambda value: value)

    def where_ignoring_case(self, kind, **fields):
        """As ``where``, each field compared with its string ignoring case as Python's ``str.lower`` does;
        ``common_name`` is indexed."""
        condition = "python_lower(CAST(json_extract(data, '$.{}') AS BLOB)) = ?"
        return self._matching(kind, condition, fields, str.lower)

    def _matching(self, kind, condition, fields, fold):
        """The objects of ``kind`` whose ``fields``, ``fold``-ed, equal the given strings ``fold``-ed.

        SQLite narrows them down (``condition``: a template of the field's name) and Python compares
        what it found, so the answer is Python's even where SQLite reads text otherwise: a string that
        holds NUL (SQLite's JSON ends it there) or a lone surrogate (a JSON escape can give one; SQLite
        cannot take it) is compared in Python, object by object.
        """
        if not all(isinstance(value, str) for value in fields.values()):
            raise TypeError("Store.where compares text fields only")
        wanted = {name: fold(value) for name, value in fields.items()}
        if all(_sqlite_reads_alike(value) for value in wanted.values()):
            conditions = "".join(" AND " + condition.format(name) for name in wanted)
            with self._lock:
                rows = self._db.execute(
                    f"SELECT data FROM objects WHERE kind = ?{conditions} ORDER BY rowid", (kind, *wanted.values())
                ).fetchall()
            found = [json.loads(row[0]) for row in rows]
        else:
            found = self.all(kind)
        return [o for o in found if all(_folded(o.get(name), fold) == value for name, value in wanted.items())]

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

    def trace(self, callback):
        """Call ``callback(sql)`` with each SQL statement the store runs, its parameters written in (``None``
        stops it): for tests that count statements or ask SQLite for a statement's plan."""
        with self._lock:
            self._db.set_trace_callback(callback)

    def close(self):
        with self._lock:
            self._db.close()


def _sqlite_reads_alike(text):
    """True when SQLite compares ``text`` as Python does: no NUL, no lone surrogate."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _folded(value, fold):
    return fold(value) if isinstance(value, str) else None
