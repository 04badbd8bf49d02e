"""Run a guide's commands as written: every ``.. code-block:: shell`` of the guide, in order, as one bash script
(``set -euo pipefail``) in an empty directory, where each code block with a ``:caption:`` is first written to the
file the caption names. So what runs is what the guide shows.

The guide runs as a reader's shell would: the collection installed (built from --collection into a tarball, installed
into the work directory, found through ANSIBLE_COLLECTIONS_PATH), ansible-core's commands on the PATH (links to those
of --ansible-bin), and nothing else of the development virtual environment: its directory is taken off the PATH, and
VIRTUAL_ENV, PYTHONPATH and the user site are unset. pip keeps its usual cache, so a second run downloads nothing.

After the script, --expect-file names files it must have made (shell patterns, relative to the work directory), and
a process whose pid the guide wrote to --pid-file must have stopped (it is stopped when the script failed).

  python tests/utils/check_guide_commands.py --guide docs/docsite/rst/guide_testing_without_vault.rst \\
    --collection .build/ansible_collections/credvault/vault --ansible-bin .venv/bin --work-dir .build/guide-check
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

DIRECTIVE = re.compile(r"^\.\. code-block:: *(\S+)\n((?: {4}:\w+:.*\n)*)\n((?:(?: {4}.*)?\n)+)", re.MULTILINE)
ANSIBLE_COMMANDS = ("ansible", "ansible-playbook", "ansible-galaxy", "ansible-config")


def guide_parts(text: str) -> tuple[list[str], dict[str, str]]:
    """The guide's shell blocks, in order, and ``{file name: content}`` of its captioned blocks."""
    script, files = [], {}
    for language, options, body in DIRECTIVE.findall(text):
        content = textwrap.dedent(body).rstrip("\n") + "\n"
        caption = re.search(r":caption: *(\S+)", options)
        if caption:
            files[caption.group(1)] = content
        elif language == "shell":
            script.append(content)
    return script, files


def install_collection(collection: Path, work: Path, ansible_bin: Path) -> Path:
    """Build the collection's tarball and install it as a reader would; return the collections path."""
    tarball_dir, collections = work / "tarball", work / "collections"
    galaxy = str(ansible_bin / "ansible-galaxy")
    # Not on ansible's default collections path: say where, or ansible-galaxy warns that it is not.
    environment = {**os.environ, "ANSIBLE_COLLECTIONS_PATH": str(collections)}
    subprocess.run(
        [galaxy, "collection", "build", "--output-path", str(tarball_dir), str(collection)],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    (tarball,) = tarball_dir.glob("*.tar.gz")
    subprocess.run(
        [galaxy, "collection", "install", "--offline", "-p", str(collections), str(tarball)],
        check=True,
        stdout=subprocess.DEVNULL,
        env=environment,
    )
    return collections


def reader_environment(work: Path, ansible_bin: Path, collections: Path) -> dict[str, str]:
    tools = work / "tools"
    tools.mkdir()
    for name in ANSIBLE_COMMANDS:
        (tools / name).symlink_to(ansible_bin / name)
    dev_bin = str(ansible_bin.resolve())
    path = [p for p in os.environ["PATH"].split(os.pathsep) if p and os.path.realpath(p) != dev_bin]
    environment = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    environment.update(
        PATH=os.pathsep.join([str(tools), *path]),
        ANSIBLE_COLLECTIONS_PATH=str(collections),
        PYTHONNOUSERSITE="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_PROGRESS_BAR="off",
        PIP_QUIET="1",
    )
    return environment


def stopped_within(pid: int, seconds: float) -> bool:
    """True once process ``pid`` no longer runs, False when it still runs after ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)


def stop_left_running(run: Path, pid_file: str) -> bool:
    """Stop the process whose pid the guide wrote, if it still runs; True when it had to be stopped."""
    path = run / pid_file
    if not pid_file or not path.exists():
        return False
    pid = int(path.read_text().strip())
    if stopped_within(pid, 5):
        return False
    os.kill(pid, signal.SIGTERM)
    stopped_within(pid, 5)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument("--guide", type=Path, required=True)
    parser.add_argument("--collection", type=Path, required=True, help="the collection's sources (the copy)")
    parser.add_argument("--ansible-bin", type=Path, required=True, help="directory of ansible-core's commands")
    parser.add_argument("--work-dir", type=Path, required=True, help="emptied, then used")
    parser.add_argument("--expect-file", action="append", default=[], help="a file the commands must make (glob)")
    parser.add_argument("--pid-file", default="", help="file where the guide writes the pid of what it starts")
    args = parser.parse_args()

    blocks, files = guide_parts(args.guide.read_text(encoding="utf-8"))
    if not blocks:
        sys.exit(f"{args.guide}: no shell code block")
    work = args.work_dir.resolve()
    shutil.rmtree(work, ignore_errors=True)
    run = work / "run"
    run.mkdir(parents=True)
    for name, content in files.items():
        (run / name).write_text(content, encoding="utf-8")
    (work / "guide.sh").write_text("set -euo pipefail -x\n" + "\n".join(blocks), encoding="utf-8")
    collections = install_collection(args.collection.resolve(), work, args.ansible_bin.absolute())
    environment = reader_environment(work, args.ansible_bin.absolute(), collections)

    log = work / "guide.log"
    with log.open("w") as output:
        result = subprocess.run(
            ["bash", str(work / "guide.sh")],
            cwd=run,
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    left_running = stop_left_running(run, args.pid_file)
    problems = []
    if result.returncode != 0:
        problems.append(f"the commands failed (exit status {result.returncode})")
    problems += [f"no file {pattern}" for pattern in args.expect_file if not glob.glob(str(run / pattern))]
    if left_running:
        problems.append(f"the process of {args.pid_file} still ran after the commands (stopped now)")
    if problems:
        print(log.read_text()[-6000:])
        sys.exit(f"{args.guide}: " + "; ".join(problems) + f" (commands: {work / 'guide.sh'}, log: {log})")
    names = ", ".join(sorted(files))
    print(f"{args.guide}: its {len(blocks)} shell blocks ran as written (with {names}), in {run}")


if __name__ == "__main__":
    main()
