"""``check_variants.py CASE LIST_OUTPUT``: what ``ansible-inventory --list`` shows with the settings of CASE:

- ``all_fields`` (all_fields.vault_resources.yml, custom_fields: ["*"]): every Character custom field, never the
  Password-typed ``it-inv Break-glass``;
- ``no_details`` (no_details.vault_resources.yml, details: false): the DNS name, no detail field, no custom field;
- ``reader`` (the example as the Password User): the one resource shared with it."""

import json
import re
import sys

CHARACTER_FIELDS = [
    "Console Password",
    "Contraseña",
    "Environment",
    "Kennwort",
    "Mot de passe",
    "Passwort",
    "SNMP community",
    "Wi-Fi PSK",
]
HOSTS = ["it-inv-sql-01", "it-inv-web-01", "it-inv-web-02", "it-inv-win-01"]


def unwrapped(item):
    return item["__ansible_unsafe"] if list(item) == ["__ansible_unsafe"] else item


case, path = sys.argv[1:]
with open(path, encoding="utf-8") as handle:
    output = handle.read()
listed = json.loads(output[re.search(r"^\{$", output, re.M).start() :], object_hook=unwrapped)
hostvars = listed["_meta"]["hostvars"]
if case == "all_fields":
    assert sorted(hostvars) == HOSTS, sorted(hostvars)
    for name, variables in hostvars.items():
        assert sorted(variables["credvault_custom_fields"]) == CHARACTER_FIELDS, (name, variables)
        assert "credvault_resource_groups" not in variables, (name, variables)
elif case == "no_details":
    assert sorted(hostvars) == HOSTS, sorted(hostvars)
    for name, variables in hostvars.items():
        assert variables["credvault_dns_name"] == name, (name, variables)
        absent = ["custom_fields", "owner", "accounts", "department", "location", "resource_url", "password_policy"]
        assert not [field for field in absent if "credvault_" + field in variables], (name, variables)
        assert variables["credvault_account_count"] in ("1", "2"), (name, variables)
elif case == "reader":
    assert sorted(hostvars) == ["it-inv-web-02"], sorted(hostvars)
    assert hostvars["it-inv-web-02"]["credvault_custom_fields"] == {"Environment": "staging"}, hostvars
else:
    raise SystemExit("unknown case %s" % case)
print("%s checked: %d hosts" % (case, len(hostvars)))
