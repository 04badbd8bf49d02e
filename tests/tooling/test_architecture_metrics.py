# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""tests/utils/architecture_metrics.py (issue 39's before/after measures) on this checkout: the write and the read
run against the simulator, the line counts, the reading of ``duplicates``' summary line."""

from __future__ import annotations

import os

from ansible_collections.credvault.vault.tests.utils import architecture_metrics as metrics

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def test_the_write_and_the_read_cross_files_and_send_requests(tmp_path):
    write, read = metrics.measure_flows(str(tmp_path / "vault"))
    for flow in (write, read):
        assert flow.files >= 2, flow
        assert flow.hops >= flow.distinct_hops >= 1, flow
    # A password and notes: the password's PUT and the account's PUT, after at least one read.
    assert write.requests >= 3, write
    assert write.crossings >= 1, write
    # The ids, then the password; the lookup has no VaultObject.
    assert read.requests >= 2, read
    assert read.crossings == 0, read


def test_code_lines_leave_out_blanks_comments_and_docstrings(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text(
        '"""Module\ndocstring."""\n\n# a comment\ndef f():\n    """Doc."""\n    return """not\na docstring"""\n'
    )
    assert metrics.python_lines(str(source)) == (8, 3)


def test_module_utils_has_more_lines_than_code_lines():
    counts = metrics.module_utils_lines(ROOT)
    assert counts["files"] >= 2
    assert counts["lines"] > counts["code lines"] > 0


def test_the_summary_line_of_duplicates_is_read():
    output = (
        "171 pairs of places (145 files read), each sharing runs of 6 or more identical or same-shape lines "
        "(83 by shape alone, 67 of those marked boilerplate)\nD1 a.py:1-7 ~ b.py:1-7\n"
    )
    assert metrics.parse_duplicates(output) == {"pairs": 171, "files": 145, "shape": 83, "boilerplate": 67}
    none = {"pairs": 0, "files": 1, "shape": 0, "boilerplate": 0}
    assert metrics.parse_duplicates("no duplicates (1 file read)\n") == none
