"""Finish the Sphinx sources antsibull-docs wrote (`make docs`), before sphinx-build reads them.

antsibull-docs knows modules, plugins and roles, not the collection's other parts, and writes a few generic texts:

- the site's front page is ``sphinx-init``'s placeholder ("Welcome to my Ansible collection documentation"): it
  becomes docs/docsite/site_index.rst;
- the collection's page is titled ``collection_name.title()`` ("Credvault.Vault"): it becomes ``credvault.vault``;
- a redirect page says "This redirect does **not** work with Ansible 2.9", a version the collection never
  supported: it says which versions the old name works on (meta/runtime.yml's requires_ansible);
- Event-Driven Ansible's event sources (extensions/eda/plugins/event_source/) have no page: each gets one, rendered
  from its DOCUMENTATION and EXAMPLES with antsibull-docs' own markup parser, listed on the collection's page
  beside the other plugins and in an index of event source plugins (the front page's "Plugin indexes").

Usage (the docs venv's Python, which has antsibull-docs-parser):
  finish_docsite.py --rst .build/docs/sphinx/rst --collection .build/ansible_collections/credvault/vault
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

import yaml
from antsibull_docs_parser.parser import Context, parse
from antsibull_docs_parser.rst import to_rst

NAMESPACE, NAME = "credvault", "vault"
FQCN = f"{NAMESPACE}.{NAME}"
EVENT_SOURCES = "extensions/eda/plugins/event_source"
REDIRECT_2_9 = "- This redirect does **not** work with Ansible 2.9.\n"
# Where the collection's page lists its plugins by type: the event sources go before the role index.
ROLE_INDEX = f".. _role_plugins_in_{FQCN}:"


def rst(text: str) -> str:
    """Ansible's markup (C(), O(), V(), M()...) as reStructuredText."""
    return to_rst(parse(text, Context(current_plugin=None)))


def heading(text: str, underline: str) -> str:
    return f"{text}\n{underline * len(text)}\n"


def documented(source: Path) -> tuple[dict, str]:
    """DOCUMENTATION (parsed) and EXAMPLES of a plugin file, read without running it."""
    values = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in ("DOCUMENTATION", "EXAMPLES"):
                    values[target.id] = node.value.value
    if "DOCUMENTATION" not in values:
        sys.exit(f"finish_docsite.py: {source} has no DOCUMENTATION")
    return yaml.safe_load(values["DOCUMENTATION"]), values.get("EXAMPLES", "")


def option_rows(options: dict) -> list[str]:
    """One definition-list entry per option: its name and facts, then its description."""
    lines = []
    for name in sorted(options):
        option = options[name]
        facts = [option.get("type", "str")]
        if option.get("elements"):
            facts[0] += f" / elements={option['elements']}"
        if option.get("required"):
            facts.append("required")
        if "choices" in option:
            facts.append("choices: " + ", ".join(f"``{choice}``" for choice in option["choices"]))
        if "default" in option:
            facts.append(f"default: ``{option['default']}``")
        environment = [entry["name"] for entry in option.get("env", [])]
        if environment:
            facts.append("environment: " + ", ".join(f"``{variable}``" for variable in environment))
        lines.append(f"``{name}`` ({'; '.join(facts)})")
        descriptions = option.get("description", [])
        for paragraph in [descriptions] if isinstance(descriptions, str) else descriptions:
            lines += ["", "    " + rst(paragraph)]
        lines.append("")
    return lines


def event_source_page(name: str, documentation: dict, examples: str) -> str:
    """The page of one event source, in the layout of antsibull-docs' plugin pages."""
    title = f"{FQCN}.{name} event source -- {documentation['short_description']}"
    lines = [
        f".. _ansible_collections.{FQCN}.{name}_event_source:",
        "",
        heading(title, "="),
        ".. note::",
        f"    This event source is part of the {FQCN} collection. ansible-rulebook finds it in the collection's",
        f"    ``{EVENT_SOURCES}`` folder; in a rulebook's ``sources``, specify: :code:`{FQCN}.{name}`.",
        "",
        heading("Synopsis", "-"),
    ]
    for paragraph in documentation.get("description", []):
        lines += ["- " + rst(paragraph), ""]
    lines += [heading("Parameters", "-"), *option_rows(documentation.get("options", {}))]
    if examples.strip():
        lines += [heading("Examples", "-"), ".. code-block:: yaml+jinja", ""]
        lines += ["    " + line if line else "" for line in examples.strip("\n").splitlines()]
        lines.append("")
    return "\n".join(lines)


def write_event_sources(rst_dir: Path, collection: Path) -> list[tuple[str, str]]:
    """A page per event source; returns (name, short description) of each."""
    written = []
    for source in sorted((collection / EVENT_SOURCES).glob("*.py")):
        documentation, examples = documented(source)
        page = rst_dir / "collections" / NAMESPACE / NAME / f"{source.stem}_event_source.rst"
        page.write_text(event_source_page(source.stem, documentation, examples), encoding="utf-8")
        written.append((source.stem, rst(documentation["short_description"])))
    return written


def list_event_sources(rst_dir: Path, sources: list[tuple[str, str]]) -> None:
    """The event sources on the collection's page and in their own plugin index."""
    entries = [
        f"* :ref:`{FQCN}.{name} <ansible_collections.{FQCN}.{name}_event_source>` -- {short}" for name, short in sources
    ]
    collection_page = rst_dir / "collections" / NAMESPACE / NAME / "index.rst"
    text = collection_page.read_text(encoding="utf-8")
    section = "\n".join(
        [
            f".. _event_source_plugins_in_{FQCN}:",
            "",
            heading("Event Source Plugins", "~"),
            *entries,
            "",
            ".. toctree::",
            "    :maxdepth: 1",
            "    :hidden:",
            "",
            *[f"    {name}_event_source" for name, _short in sources],
            "",
            "",
        ]
    )
    if ROLE_INDEX not in text:
        sys.exit(f"finish_docsite.py: {collection_page} has no role index to put the event sources before")
    collection_page.write_text(text.replace(ROLE_INDEX, section + ROLE_INDEX, 1), encoding="utf-8")
    index = [":orphan:", "", ".. _list_of_event_source_plugins:", "", heading("Index of all Event Source Plugins", "=")]
    index += [heading(FQCN, "-"), *entries, ""]
    (rst_dir / "collections" / "index_event_source.rst").write_text("\n".join(index), encoding="utf-8")


def retitle_collection(rst_dir: Path) -> None:
    page = rst_dir / "collections" / NAMESPACE / NAME / "index.rst"
    generated = heading(FQCN.title(), "=")
    text = page.read_text(encoding="utf-8")
    if generated not in text:
        sys.exit(f"finish_docsite.py: {page} has no title {FQCN.title()!r} to replace")
    page.write_text(text.replace(generated, heading(FQCN, "="), 1), encoding="utf-8")


def reword_redirects(rst_dir: Path, collection: Path) -> int:
    """Each redirect page's sentence about Ansible 2.9; returns how many pages had it."""
    requires = yaml.safe_load((collection / "meta/runtime.yml").read_text(encoding="utf-8"))["requires_ansible"]
    version = re.sub(r"^>=\s*", "", requires)
    sentence = f"- The old name works on every ansible-core the collection supports ({version} and later).\n"
    reworded = 0
    for page in (rst_dir / "collections" / NAMESPACE / NAME).glob("*.rst"):
        text = page.read_text(encoding="utf-8")
        if REDIRECT_2_9 in text:
            page.write_text(text.replace(REDIRECT_2_9, sentence), encoding="utf-8")
            reworded += 1
    return reworded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rst", type=Path, required=True, help="the Sphinx sources (rst directory)")
    parser.add_argument("--collection", type=Path, required=True, help="the collection the site is built from")
    args = parser.parse_args()
    front_page = args.collection / "docs/docsite/site_index.rst"
    (args.rst / "index.rst").write_text(front_page.read_text(encoding="utf-8"), encoding="utf-8")
    retitle_collection(args.rst)
    sources = write_event_sources(args.rst, args.collection)
    list_event_sources(args.rst, sources)
    reworded = reword_redirects(args.rst, args.collection)
    print(f"finish_docsite.py: front page, title, {len(sources)} event source page(s), {reworded} redirect page(s)")


if __name__ == "__main__":
    main()
