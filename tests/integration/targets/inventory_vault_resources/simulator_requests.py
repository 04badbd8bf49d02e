"""``simulator_requests.py CONFIG reset|count``: clear, or count, the vault requests the default simulator served
(its GET /__simulator/requests list, which leaves out the admin paths)."""

import json
import sys

import requests

with open(sys.argv[1], encoding="utf-8") as handle:
    sim = json.load(handle)["credvault_simulators"]["default"]
url = sim["url"] + "/__simulator/requests"
headers = {"AUTHTOKEN": sim["token"]}
if sys.argv[2] == "reset":
    requests.delete(url, headers=headers, verify=sim["ca_path"], timeout=30).raise_for_status()
else:
    answer = requests.get(url, headers=headers, verify=sim["ca_path"], timeout=30)
    answer.raise_for_status()
    print(len(answer.json()))
