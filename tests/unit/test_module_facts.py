# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The shared files that list the modules are what tests/utils/module_facts.py writes from the modules' declarations
(tests/modules/<module>.yml), and a declaration is refused, naming what is wrong, when it cannot be read."""

from __future__ import annotations

import os
import shutil

import pytest

from ansible_collections.credvault.vault.tests.utils import module_facts

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = [module_facts.RUNTIME, module_facts.README, module_facts.GUIDE, module_facts.LEAK_MODES]
EXAMPLE = "vault_server_info"


def test_the_shared_files_are_written_from_the_declarations():
    stale = module_facts.stale(ROOT)
    assert stale == [], "%s differ from what tests/modules/*.yml make: run %s" % (
        ", ".join(stale),
        module_facts.COMMAND,
    )


@pytest.fixture
def checkout(tmp_path):
    """A copy of the declarations and of the shared files."""
    shutil.copytree(os.path.join(ROOT, module_facts.DECLARATIONS), tmp_path / module_facts.DECLARATIONS)
    for path in SHARED:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(os.path.join(ROOT, path), tmp_path / path)
    return tmp_path


def edit(checkout, path, old, new):
    text = (checkout / path).read_text(encoding="utf-8")
    assert old in text
    (checkout / path).write_text(text.replace(old, new, 1), encoding="utf-8")


def test_a_changed_fact_makes_only_its_file_differ_until_written(checkout, capsys):
    declaration = module_facts.declaration_path(EXAMPLE)
    facts = module_facts.read(str(checkout), EXAMPLE)
    edit(checkout, declaration, "readme: " + facts.readme, "readme: the server, told otherwise")

    assert module_facts.main(["--check", "--root", str(checkout)]) == 1
    assert capsys.readouterr().out == "differs: README.md\n"
    assert module_facts.write(str(checkout)) == ["README.md"]
    readme = (checkout / "README.md").read_text(encoding="utf-8")
    assert "| `credvault.vault.%s` | module | the server, told otherwise |\n" % EXAMPLE in readme
    assert module_facts.stale(str(checkout)) == []


def test_a_new_declaration_joins_every_list_in_the_order_of_the_names(checkout):
    text = (checkout / module_facts.declaration_path(EXAMPLE)).read_text(encoding="utf-8")
    text = text.replace("vault_server_info", "vault_sample_info").replace("server_info_refused", "sample_refused")
    (checkout / module_facts.declaration_path("vault_sample_info")).write_text(text, encoding="utf-8")

    assert module_facts.write(str(checkout)) == sorted(SHARED)
    runtime = (checkout / module_facts.RUNTIME).read_text(encoding="utf-8")
    assert "    - vault_resource_type_info\n    - vault_sample_info\n    - vault_server_info\n" in runtime
    guide = (checkout / module_facts.GUIDE).read_text(encoding="utf-8")
    assert "   * - ``vault_sample_info``\n     - ``module_utils/_server_info.py``\n     - ``describe``\n" in guide
    modes = (checkout / module_facts.LEAK_MODES).read_text(encoding="utf-8")
    assert "    # vault_sample_info (tests/modules/vault_sample_info.yml)\n    - name: The server\n" in modes
    assert '        - "{{ sample_refused }}"\n        - "{{ server_info_refused }}"\n' in modes


def test_a_cell_of_two_lines_continues_under_the_first():
    facts = module_facts.Facts("vault_x", "x", "module_utils/_x.py", "converge", "one\ntwo", 1, {})

    assert module_facts.guide_table([facts]).endswith("     - one\n       two\n\n")


@pytest.mark.parametrize(
    "path, marker",
    [(module_facts.LEAK_MODES, "    # END leak tasks\n"), (module_facts.RUNTIME, "    # BEGIN action group")],
)
def test_a_lost_marker_is_named_and_nothing_is_written(checkout, path, marker):
    edit(checkout, path, marker, "")
    before = {shared: (checkout / shared).read_text(encoding="utf-8") for shared in SHARED}

    with pytest.raises(module_facts.FactsError, match="%s: no line '%s'" % (path, marker.strip(" #\n"))):
        module_facts.write(str(checkout))
    assert {shared: (checkout / shared).read_text(encoding="utf-8") for shared in SHARED} == before


def test_the_module_rows_of_the_readme_are_one_run_of_lines(checkout):
    edit(
        checkout,
        "README.md",
        "| `credvault.vault.vault_csr` |",
        "| `credvault.vault.vault_password` | lookup | x |\n| `credvault.vault.vault_csr` |",
    )

    with pytest.raises(module_facts.FactsError, match="must be one run of lines, and others stand between them"):
        module_facts.stale(str(checkout))


@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda text: text.replace("run_time: 16\n", ""), "no key run_time"),
        (lambda text: text.replace("run_time: 16", "run_time: 16\nrun_times: 16"), "unknown key run_times"),
        (lambda text: text.replace("run_time: 16", 'run_time: "16"'), "run_time is not of type int"),
        (
            lambda text: text.replace("register: server_info_refused", ""),
            "the failing leak task 'The server with a wrong token' has no register",
        ),
        (lambda text: text[: text.index("leak_tasks:")] + "leak_tasks: nothing\n", "leak_tasks is not a list of tasks"),
    ],
    ids=["missing", "unknown", "mistyped", "unregistered failing task", "tasks not a list"],
)
def test_a_declaration_that_cannot_be_read_is_refused_naming_the_problem(checkout, change, problem):
    declaration = checkout / module_facts.declaration_path(EXAMPLE)
    declaration.write_text(change(declaration.read_text(encoding="utf-8")), encoding="utf-8")

    with pytest.raises(module_facts.FactsError, match="^%s: .*%s" % (module_facts.declaration_path(EXAMPLE), problem)):
        module_facts.load(str(checkout))


def test_every_declaration_reads_back_the_same_from_the_text_dump_writes():
    for facts in module_facts.load(ROOT):
        assert module_facts.parse(facts.module, module_facts.dump(facts)) == facts
