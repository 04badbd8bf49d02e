# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""docs/docsite: the guides of the documentation site (make docs). Every guide is listed in extra-docs.yml and
carries the label antsibull-docs links it by; every YAML example parses, its tasks call modules by FQCN, and
every credvault.vault name the guides mention is a plugin or role of the collection."""

from __future__ import annotations

import os
import re
import textwrap

import pytest
import yaml

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DOCSITE = os.path.join(ROOT, "docs", "docsite")
GUIDES = os.path.join(DOCSITE, "rst")
# A YAML block, its options (such as ``:caption: seed.yml``) and its text.
CODE_BLOCK = re.compile(
    r"^\.\. code-block:: (yaml\+jinja|yaml)\n((?: {4}:\w+:.*\n)*)\n((?:(?: {4}.*)?\n)+)", re.MULTILINE
)
# Keys of a task that are not its action.
TASK_KEYWORDS = {
    "name", "register", "when", "no_log", "vars", "delegate_to", "throttle", "run_once", "loop", "loop_control",
    "become", "module_defaults", "block", "tags", "changed_when", "failed_when", "environment", "delegate_facts",
    "always", "rescue", "async", "poll", "until", "retries", "delay", "check_mode", "diff",
}  # fmt: skip


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def guide_names():
    return sorted(name[:-4] for name in os.listdir(GUIDES) if name.endswith(".rst"))


def yaml_blocks():
    """(guide, number, text) of each ``code-block:: yaml`` or ``yaml+jinja`` of the guides."""
    for guide in guide_names():
        for number, match in enumerate(CODE_BLOCK.finditer(read(os.path.join(GUIDES, guide + ".rst")))):
            yield guide, number, textwrap.dedent(match.group(3))


def collection_content():
    """The names credvault.vault.<name> can refer to: plugins, documentation fragments, event sources, roles and
    the action group."""
    names = {"vault"}
    for plugin_type in ("modules", "lookup", "inventory", "doc_fragments"):
        names.update(name[:-3] for name in os.listdir(os.path.join(ROOT, "plugins", plugin_type)))
    names.update(name[:-3] for name in os.listdir(os.path.join(ROOT, "extensions", "eda", "plugins", "event_source")))
    names.update(os.listdir(os.path.join(ROOT, "roles")))
    return names


def tasks(document):
    """Every task of a list of plays or tasks, blocks included (a rulebook, with its sources and rules, has none)."""
    for item in document if isinstance(document, list) else []:
        if "sources" in item and "rules" in item:
            continue
        if "tasks" in item or "roles" in item:
            yield from tasks(item.get("tasks", []))
        elif "block" in item:
            for section in ("block", "rescue", "always"):
                yield from tasks(item.get(section, []))
        else:
            yield item


def test_extra_docs_lists_every_guide_once():
    extra_docs = yaml.safe_load(read(os.path.join(DOCSITE, "extra-docs.yml")))
    listed = [guide for section in extra_docs["sections"] for guide in section["toctree"]]
    assert sorted(listed) == guide_names()


@pytest.mark.parametrize("guide", guide_names())
def test_guide_carries_its_label(guide):
    assert read(os.path.join(GUIDES, guide + ".rst")).startswith(
        ".. _ansible_collections.credvault.vault.docsite.%s:\n" % guide
    )


def test_links_file_parses():
    links = yaml.safe_load(read(os.path.join(DOCSITE, "links.yml")))
    assert links["edit_on_github"]["repository"] == "credvault/credvault.vault"


@pytest.mark.parametrize("guide", guide_names())
def test_every_yaml_block_of_a_guide_is_checked(guide):
    text = read(os.path.join(GUIDES, guide + ".rst"))
    directives = len(re.findall(r"^\.\. code-block:: yaml", text, re.MULTILINE))
    assert directives > 0, "%s has no YAML example" % guide
    assert len(CODE_BLOCK.findall(text)) == directives


@pytest.mark.parametrize("guide, number, text", list(yaml_blocks()), ids=lambda value: str(value)[:30])
def test_yaml_example_parses_and_uses_fqcns(guide, number, text):
    document = yaml.safe_load(text)
    for task in tasks(document):
        actions = set(task) - TASK_KEYWORDS
        assert len(actions) == 1, "%s block %d: a task without exactly one action: %s" % (guide, number, task)
        (action,) = actions
        assert action.count(".") >= 2, "%s block %d: %s is not a FQCN" % (guide, number, action)


@pytest.mark.parametrize("guide", guide_names())
def test_guide_names_only_existing_content(guide):
    # An event source's page is labelled ansible_collections.credvault.vault.<name>_event_source (finish_docsite.py).
    pattern = r"credvault\.vault\.(\w+?)(?:_event_source)?(?![\w.])"
    mentioned = set(re.findall(pattern, read(os.path.join(GUIDES, guide + ".rst"))))
    unknown = sorted(mentioned - collection_content())
    assert not unknown, "%s names what the collection does not have: %s" % (guide, unknown)


@pytest.mark.parametrize("example", ["inventory.yml", "group_vars/linux.yml", "site.yml"])
def test_host_credentials_guide_shows_the_example_files_as_they_are(example):
    """docs/examples/host_credentials is what the guide shows, file by file (the molecule scenario
    extensions/molecule/host_credentials runs its site.yml over SSH)."""
    shown = read(os.path.join(GUIDES, "guide_host_credentials.rst"))
    content = read(os.path.join(ROOT, "docs", "examples", "host_credentials", example))
    assert textwrap.indent(content, "    ") in shown


def test_the_client_certificate_play_of_the_connecting_guide_is_the_one_the_target_runs():
    """tests/integration/targets/lookup_connection runs it as written, against the simulator that demands a client
    certificate (its runme.sh gives vault_url and vault_files as extra vars)."""
    shown = read(os.path.join(GUIDES, "guide_connecting.rst"))
    played = read(
        os.path.join(
            ROOT, "tests", "integration", "targets", "lookup_connection", "playbooks", "client_certificate.yml"
        )
    )
    assert played.startswith("---\n")
    assert textwrap.indent(played[len("---\n") :], "    ") in shown


def test_the_run_cache_example_of_the_lookups_guide_and_the_performance_page_is_the_one_the_target_runs():
    """tests/integration/targets/lookup_run_cache uses it as its group variables, as written."""
    played = read(
        os.path.join(ROOT, "tests", "integration", "targets", "lookup_run_cache", "group_vars", "all", "documented.yml")
    )
    assert played.startswith("---\n")
    assert textwrap.indent(played[len("---\n") :], "    ") in read(os.path.join(GUIDES, "guide_lookups.rst"))
    assert "```yaml\n" + played[len("---\n") :] + "```" in read(os.path.join(ROOT, "docs", "performance.md"))


def test_the_pattern_of_the_awx_guide_is_the_one_the_runner_check_runs():
    """tests/utils/runner_check.py runs tests/runner/project/guide_tasks.yml in a job and searches its artifacts."""
    shown = read(os.path.join(GUIDES, "guide_awx_aap.rst"))
    played = read(os.path.join(ROOT, "tests", "runner", "project", "guide_tasks.yml"))
    assert textwrap.indent(played[len("---\n") :], "    ") in shown


@pytest.mark.parametrize("example", ["rulebook.yml", "update_service.yml", "inventory.yml", "vars.yml"])
def test_event_driven_guide_shows_the_example_files_as_they_are(example):
    """docs/examples/eda is what the guide shows, file by file (make eda-check runs it with ansible-rulebook)."""
    shown = read(os.path.join(GUIDES, "guide_event_driven.rst"))
    content = read(os.path.join(ROOT, "docs", "examples", "eda", example))
    assert textwrap.indent(content, "    ") in shown


def test_real_vaults_guide_shows_its_example_as_it_is():
    """docs/examples/real_vaults/check_vault.yml is what the guide shows (the integration target real_dialect runs it
    against both dialects of the simulator)."""
    shown = read(os.path.join(GUIDES, "guide_real_vaults.rst"))
    content = read(os.path.join(ROOT, "docs", "examples", "real_vaults", "check_vault.yml"))
    assert textwrap.indent(content, "    ") in shown


def test_password_access_guide_shows_its_give_back_playbook_as_it_is():
    """docs/examples/password_access/give_back.yml is what the guide shows (the integration target access_control runs
    it from each state the block can leave: checked out, waiting, approved)."""
    shown = read(os.path.join(GUIDES, "guide_password_access.rst"))
    content = read(os.path.join(ROOT, "docs", "examples", "password_access", "give_back.yml"))
    assert textwrap.indent(content, "    ") in shown
