"""``simulator_requests.py CONFIG COMMAND [ARGS]`` against the default simulator, as its administrator:

- ``reset`` / ``count``: clear, or count, the vault requests it served (its GET /__simulator/requests list, which
  leaves out the admin paths);
- ``custom-field LABEL TYPE``: define the resource-level custom field LABEL as a TYPE field (``Password``...),
  before any value uses it (POST /__simulator/custom-fields; the spec has no endpoint for it);
- ``delete-user NAME``: delete the user NAME, which revokes its tokens (DELETE /user?USERNAME=, the vault's own
  call)."""

import json
import sys

import requests

with open(sys.argv[1], encoding="utf-8") as handle:
    sim = json.load(handle)["credvault_simulators"]["default"]
command, arguments = sys.argv[2], sys.argv[3:]
session = requests.Session()
session.headers["AUTHTOKEN"] = sim["token"]
# verify on each request: a session's own is overridden by REQUESTS_CA_BUNDLE.
options = {"verify": sim["ca_path"], "timeout": 30}
requests_url = sim["url"] + "/__simulator/requests"
if command == "reset":
    session.delete(requests_url, **options).raise_for_status()
elif command == "count":
    answer = session.get(requests_url, **options)
    answer.raise_for_status()
    print(len(answer.json()))
elif command == "custom-field":
    label, field_type = arguments
    document = {"level": "RESOURCE", "label": label, "type": field_type}
    session.post(sim["url"] + "/__simulator/custom-fields", json=document, **options).raise_for_status()
elif command == "delete-user":
    answer = session.delete(sim["url"] + "/restapi/json/v1/user", params={"USERNAME": arguments[0]}, **options)
    answer.raise_for_status()
    status = answer.json()["operation"]["result"]["status"]
    if status != "Success":
        raise SystemExit("delete-user %s: %s" % (arguments[0], answer.json()["operation"]["result"]))
else:
    raise SystemExit("unknown command %s" % command)
