"""Check the built documentation site (`make docs`) in a headless Chromium.

One Chromium run (`--headless --dump-dom`) opens a harness page that loads the site's index, the collection's
index and every plugin, role and guide page in iframes and reports, per page, its links and the text of its
highlighted code blocks; the checks then run on that report:

- the site's index leads to the collection's index (through the list of collections), which links every module, lookup and
  inventory plugin of plugins/, every event source of extensions/eda/plugins/event_source/, every role of roles/
  and every guide of docs/docsite/extra-docs.yml;
- each module, lookup, inventory and event source page renders its examples: a highlighted code block holding the
  plugin's FQCN; an event source page also lists each of its options;
- the site is the collection's, not antsibull-docs' placeholders: the front page's title is docs/docsite/
  site_index.rst's, the collection's page is titled credvault.vault, no page says the collection is for Ansible 2.9
  or links Ansible's blog or forum in its top bar, and the front page links the index of event source plugins;
- each role page renders its entry point `main`;
- each guide renders as many highlighted code blocks as its source has `code-block` directives;
- no page shows a docutils error (class `system-message`).

Usage: check_docsite.py --html .build/docs/html --collection .build/ansible_collections/credvault/vault
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

NAMESPACE, NAME = "credvault", "vault"
PLUGIN_TYPES = ("modules", "lookup", "inventory")
# How antsibull-docs names a plugin's page: <name>_<type>.html.
PAGE_SUFFIX = {"modules": "module", "lookup": "lookup", "inventory": "inventory"}
EVENT_SOURCES = "extensions/eda/plugins/event_source"
# What antsibull-docs and the theme write when the collection does not say otherwise (tests/utils/finish_docsite.py
# and docs/docsite/sphinx_conf_extra.py replace them).
PLACEHOLDERS = ("Welcome to my Ansible collection", "Ansible 2.9", "Credvault.Vault")
ANSIBLE_TOP_LINKS = ("https://www.ansible.com/blog", "https://forum.ansible.com/")

HARNESS = """<!DOCTYPE html>
<html><body><pre id="report">not loaded</pre>
{iframes}
<script>
window.addEventListener("load", () => {{
  const report = {{}};
  for (const frame of document.querySelectorAll("iframe")) {{
    const page = frame.contentDocument;
    report[frame.dataset.page] = page === null || page.body === null ? null : {{
      title: page.title,
      links: [...page.querySelectorAll("a[href]")].map(a => a.href.split("#")[0]),
      code_blocks: [...page.querySelectorAll("div.highlight pre")].map(pre => pre.textContent),
      top_links: [...page.querySelectorAll(".DocSite-globalNav a[href]")].map(a => a.href),
      text: page.body.innerText,
      errors: page.querySelectorAll(".system-message").length,
    }};
  }}
  document.getElementById("report").textContent = JSON.stringify(report);
}});
</script></body></html>
"""


def expected_pages(collection: Path) -> dict[str, dict]:
    """The pages the site must have, keyed by their path under the html directory."""
    base = f"collections/{NAMESPACE}/{NAME}"
    pages = {}
    for plugin_type in PLUGIN_TYPES:
        for source in sorted((collection / "plugins" / plugin_type).glob("*.py")):
            if source.stem != "__init__":
                pages[f"{base}/{source.stem}_{PAGE_SUFFIX[plugin_type]}.html"] = {"kind": "plugin", "name": source.stem}
    for source in sorted((collection / EVENT_SOURCES).glob("*.py")):
        options = sorted(documented_options(source))
        pages[f"{base}/{source.stem}_event_source.html"] = {"kind": "plugin", "name": source.stem, "options": options}
    for role in sorted(path.name for path in (collection / "roles").iterdir() if path.is_dir()):
        pages[f"{base}/{role}_role.html"] = {"kind": "role", "name": role}
    extra_docs = yaml.safe_load((collection / "docs/docsite/extra-docs.yml").read_text())
    for section in extra_docs["sections"]:
        for guide in section["toctree"]:
            source = (collection / "docs/docsite/rst" / f"{guide}.rst").read_text()
            code_blocks = len(re.findall(r"^\s*\.\. code-block::", source, re.MULTILINE))
            pages[f"{base}/docsite/{guide}.html"] = {"kind": "guide", "name": guide, "code_blocks": code_blocks}
    return pages


def redirect_pages(collection: Path) -> list[str]:
    """The pages of the modules meta/runtime.yml redirects (the placeholder checks read them too)."""
    routing = yaml.safe_load((collection / "meta/runtime.yml").read_text()).get("plugin_routing", {})
    modules = routing.get("modules", {})
    return [
        f"collections/{NAMESPACE}/{NAME}/{name}_module.html" for name in sorted(modules) if "redirect" in modules[name]
    ]


def documented_options(source: Path) -> dict:
    """The options of a plugin file's DOCUMENTATION, read without running it."""
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            getattr(target, "id", "") == "DOCUMENTATION" for target in node.targets
        ):
            return yaml.safe_load(node.value.value).get("options", {})
    sys.exit(f"check_docsite.py: {source} has no DOCUMENTATION")


def chromium() -> str:
    for candidate in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(candidate):
            return candidate
    sys.exit("check_docsite.py: no Chromium found (make docs-check installs Debian's chromium)")


def render(html_dir: Path, pages: list[str]) -> dict:
    """Load the pages in one headless Chromium and return the harness's report, keyed by page."""
    iframes = "\n".join(
        f'<iframe data-page="{html.escape(page)}" src="{(html_dir / page).as_uri()}"></iframe>' for page in pages
    )
    with tempfile.TemporaryDirectory(prefix="check-docsite-") as work:
        harness = Path(work, "harness.html")
        harness.write_text(HARNESS.format(iframes=iframes))
        # --allow-file-access-from-files lets the harness read the DOM of the file:// pages in its iframes.
        command = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"]
        command += [f"--user-data-dir={work}/profile", "--dump-dom", harness.as_uri()]
        dom = subprocess.run(command, check=True, capture_output=True, text=True, timeout=300).stdout
    match = re.search(r'<pre id="report">(.*?)</pre>', dom, re.DOTALL)
    if match is None or match.group(1) == "not loaded":
        sys.exit("check_docsite.py: the harness page did not report (Chromium printed no report)")
    return json.loads(html.unescape(match.group(1)))


def problems(html_dir: Path, expected: dict[str, dict], report: dict) -> list[str]:
    found = []
    collection_index = f"collections/{NAMESPACE}/{NAME}/index.html"
    for page, seen in report.items():
        if seen is None:
            found.append(f"{page}: does not open")
        elif seen["errors"]:
            found.append(f"{page}: shows {seen['errors']} docutils error(s)")
        else:
            shown = [text for text in PLACEHOLDERS if text in seen["title"] + seen["text"]]
            shown += [link for link in ANSIBLE_TOP_LINKS if link in seen["top_links"]]
            found.extend(f"{page}: shows antsibull-docs' or the theme's {text!r}" for text in shown)
    event_sources = (html_dir / "collections/index_event_source.html").as_uri()
    if report.get("index.html") and event_sources not in report["index.html"]["links"]:
        found.append("index.html: no link to collections/index_event_source.html")
    # The site's index links the list of collections, which links the collection's index.
    for page, target in (("index.html", "collections/index.html"), ("collections/index.html", collection_index)):
        if report.get(page) and (html_dir / target).as_uri() not in report[page]["links"]:
            found.append(f"{page}: no link to {target}")
    index_links = set((report.get(collection_index) or {}).get("links", []))
    for page, what in expected.items():
        seen = report.get(page)
        if (html_dir / page).as_uri() not in index_links:
            found.append(f"{collection_index}: no link to {page}")
        if seen is None:
            continue
        fqcn = f"{NAMESPACE}.{NAME}.{what['name']}"
        if what["kind"] == "plugin" and not any(fqcn in block for block in seen["code_blocks"]):
            found.append(f"{page}: no highlighted example holding {fqcn}")
        missing = [option for option in what.get("options", []) if option not in seen["text"]]
        if missing:
            found.append(f"{page}: does not list the options {', '.join(missing)}")
        if what["kind"] == "role" and "Entry point main" not in seen["text"]:
            found.append(f"{page}: does not render the entry point main of {fqcn}")
        if what["kind"] == "guide" and len(seen["code_blocks"]) < what["code_blocks"]:
            found.append(
                f"{page}: {len(seen['code_blocks'])} highlighted code blocks, its source has {what['code_blocks']}"
            )
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, required=True, help="the built site (make docs: .build/docs/html)")
    parser.add_argument("--collection", type=Path, required=True, help="the collection the site was built from")
    args = parser.parse_args()
    html_dir = args.html.resolve()
    expected = expected_pages(args.collection)
    pages = ["index.html", "collections/index.html", f"collections/{NAMESPACE}/{NAME}/index.html"]
    pages += ["collections/index_event_source.html", *redirect_pages(args.collection), *expected]
    missing = [page for page in pages if not (html_dir / page).is_file()]
    if missing:
        sys.exit("check_docsite.py: pages not built:\n  " + "\n  ".join(missing))
    found = problems(html_dir, expected, render(html_dir, pages))
    if found:
        sys.exit("check_docsite.py: the site is incomplete:\n  " + "\n  ".join(found))
    kinds = [what["kind"] for what in expected.values()]
    print(
        f"check_docsite.py: Chromium rendered {len(pages)} pages: {kinds.count('plugin')} plugin pages with their "
        f"examples, {kinds.count('role')} role page(s), {kinds.count('guide')} guides, all linked from the index"
    )


if __name__ == "__main__":
    main()
