#!/usr/bin/env python
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""Create many user groups through the simulator's admin endpoint in one task (one uri task per group is slow).

Arguments: a name prefix, a count and a description; the groups are <prefix><000>, <prefix><001>, ... The
simulator comes from the environment, so that its token shows in no command line: SIM_URL, SIM_TOKEN, SIM_CA_PATH.
Prints the created list items as a JSON list.
"""

from __future__ import annotations

import json
import os
import ssl
import sys
import urllib.request


def create(context, name, description):
    request = urllib.request.Request(
        os.environ["SIM_URL"] + "/__simulator/user-groups",
        data=json.dumps({"userGroupName": name, "description": description}).encode(),
        headers={"AUTHTOKEN": os.environ["SIM_TOKEN"], "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, context=context, timeout=30) as answer:
        return json.load(answer)


def main():
    prefix, count, description = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    context = ssl.create_default_context(cafile=os.environ["SIM_CA_PATH"])
    created = [create(context, "%s%03d" % (prefix, number), description) for number in range(count)]
    print(json.dumps(created))


if __name__ == "__main__":
    main()
