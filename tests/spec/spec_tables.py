"""The spec's endpoint rows and record tables, parsed from vault-rest-api.md beside this file.

The one parser of the spec's tables: the collection's catalogue test
(tests/unit/plugins/module_utils/test_catalogue.py, which imports it as
``ansible_collections.credvault.vault.tests.spec.spec_tables``) and the
simulator's conformance harness (tests/simulator/tests, which puts this
directory on ``sys.path`` and imports ``spec_tables``) both read the spec
through it. It uses only the standard library, so either can import it.

Nothing here is written by hand from the spec: rows, operation names, wrappers,
required output keys and record field types all come from the document, so
a check that passes proves agreement with the text.
"""

import re
from dataclasses import dataclass
from pathlib import Path

SPEC = Path(__file__).resolve().parent / "vault-rest-api.md"
REST_ROOT = "/restapi/json/v1"
PKI_ROOT = "/api/pki/restapi"
_METHOD = re.compile(r"^(GET|POST|PUT|DELETE)\b")
_BUILD = re.compile(r"\b([AB]) (\d+)")
_FILE_OUTPUTS = ("the file", "the key file", "certificate object", "key store file object")


@dataclass(frozen=True)
class SpecRow:
    """One endpoint row: its cells as the spec writes them, ``root`` the path root of its table,
    ``row_id`` a name unique among the rows (``GET /resources``)."""

    row_id: str
    method_cell: str
    root: str
    path: str
    input: str
    output: str
    build: str

    @property
    def editions(self):
        """The editions that have this endpoint (a field gate like ``fileType: B 6200`` is not one)."""
        if ":" in self.build or self.build == "-":
            return ("A", "B")
        return tuple(sorted({edition for edition, _number in _BUILD.findall(self.build)}))

    def minimum_build(self, edition):
        """The endpoint's minimum build in ``edition`` (0 when none is stated)."""
        if ":" in self.build:
            return 0
        return next((int(number) for ed, number in _BUILD.findall(self.build) if ed == edition), 0)

    def method(self, edition):
        if self.method_cell.startswith("GET (edition A) or POST (edition B)"):
            return "GET" if edition == "A" else "POST"
        return self.method_cell

    def path_pattern(self):
        """A regular expression for request paths this row serves."""
        return re.escape(self.root) + re.sub(r"\\\{[a-z_]+\\\}", "[^/]+", re.escape(self.path)) + "$"

    def operation_names(self):
        """Every operation name the output column gives (``name`` or ``operationName``), in order:
        the edition A name first when edition B has its own."""
        return re.findall(r"(?:name|operationName) `([^`]+)`", self.output)

    def operation_name(self, edition):
        """``(key, name)``: key ``name`` or ``operationName`` and the name the spec gives;
        ``None`` for an endpoint whose output is a file."""
        match = re.search(r"(name|operationName) `([^`]+)`(?: \(edition B: `([^`]+)`\))?", self.output)
        if match is None:
            return None
        key, name, b_name = match.groups()
        return key, (b_name if edition == "B" and b_name else name)

    @property
    def top_level(self):
        return self.root == PKI_ROOT or "top-level name" in self.output

    @property
    def returns_file(self):
        return self.output.strip().startswith(_FILE_OUTPUTS)

    def details_key(self):
        return "details" if self.root == PKI_ROOT else "Details"

    def required_detail_keys(self, edition):
        """Keys the output column names inside Details: ``Details.X`` and ``Details[`X`]``
        (``edition B adds Details.X`` only in edition B)."""
        keys = re.findall(r"(edition B adds )?Details\.([A-Za-z_]+)", self.output)
        keys += [("", key) for key in re.findall(r"Details\[`([^`]+)`\]", self.output)]
        return [key for only_b, key in keys if edition == "B" or not only_b]

    def status_code(self):
        match = re.search(r"statusCode (2000[01])", self.output)
        return int(match.group(1)) if match else None


def endpoint_rows():
    """A ``SpecRow`` for every endpoint row of the spec's tables under a ``{rest_root}`` or
    ``{pki_root}`` heading (the sharing table leaves out its method: it is PUT)."""
    rows, root, sharing, seen = [], None, False, set()
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            root = REST_ROOT if "{rest_root}" in line else PKI_ROOT if "{pki_root}" in line else None
            sharing = line.startswith("### Sharing")
            continue
        if root is None or not line.startswith("| ") or line.startswith("|---"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if sharing and cells[0].startswith("/"):
            cells = ["PUT"] + cells
        if not _METHOD.match(cells[0]):
            continue
        method, path_cell, input_cell, output, build = cells
        path = path_cell.split("?")[0].split(" ")[0]
        variant = re.search(r" (\(.*\))$", path_cell.replace("`", ""))
        row_id = f"{method.split(' ')[0]} {path}" + (f" {variant.group(1)}" if variant else "")
        if row_id in seen:
            row_id += " by " + input_cell.split(", ")[-1]
        seen.add(row_id)
        rows.append(SpecRow(row_id, method, root, path, input_cell, output, build))
    return rows


@dataclass(frozen=True)
class FieldSpec:
    """One field of a record table."""

    name: str
    type: str  # string, number, boolean, list, object
    edition: str  # "" when in both editions, else the only edition that has it
    optional: bool


def record_tables():
    """``{title: {field name: FieldSpec}}`` for every record table of the spec."""
    tables, title, header = {}, None, None
    for line in SPEC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            title = None
        elif line.startswith("### "):
            title, header = line[4:].strip(), None
        elif title and line.startswith("| ") and not line.startswith("|---"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            elif title == "Other records":
                tables[cells[0]] = _prose_fields(cells[1])
            elif header[0] == "Field":
                tables.setdefault(title, {}).update(_table_fields(title, header, cells))
    tables.update(PROSE_RECORDS)
    return tables


def _table_fields(title, header, cells):
    type_cell = cells[header.index("Type")] if "Type" in header else "string"
    notes = " ".join(cells[1:])
    # "All values are strings. Some keys appear only on some policies." (Password policy)
    optional = "present on some" in notes or title.startswith("Password policy")
    edition = next((ed for ed in "AB" if re.search(rf"edition {ed}\b", notes)), "")
    return {name: FieldSpec(name, _type(type_cell), edition, optional) for name in _names(cells[0])}


def _names(cell):
    return [name.strip() for name in cell.split(", ") if name.strip()]


def _type(cell):
    for word in ("string", "number", "boolean", "list", "object"):
        if cell.startswith(word):
            return word
    raise ValueError(f"unknown type {cell!r}")


def _prose_fields(cell):
    """``GROUP ID (number), GROUP NAME (string)`` or ``name, id, displayName (strings)``."""
    fields = {}
    for part in _names(re.sub(r"\(string `true`/`false`\)", "", cell)):
        match = re.match(r"([A-Za-z_ ]+?)\s*(?:\((\w+)[^)]*\))?$", part)
        name, kind = match.group(1).strip(), (match.group(2) or "string").rstrip("s")
        fields[name] = FieldSpec(name, _type(kind), "", False)
    return fields


# Records the spec describes in prose rather than in a table:
# "List item: userGroupName (string), userGroupId (number), dateCreated (string), description (string)."
# "Fields: group_name, group_description, group_mail (an e-mail address), ssl_details (string of
# comma-separated certificate ids)."
PROSE_RECORDS = {
    "User group": _prose_fields(
        "userGroupName (string), userGroupId (number), dateCreated (string), description (string)"
    ),
    "Certificate group": _prose_fields("group_name, group_description, group_mail, ssl_details"),
}
