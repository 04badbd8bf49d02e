"""``check_list.py LIST_OUTPUT NORMALIZED_JSON``: what ``ansible-inventory --list`` (with or without -vvvv) shows of
the resources setup.yml made; writes the JSON without the log lines -vvvv puts before it and without the
``__ansible_unsafe`` wrappers ansible-core 2.19 puts around the strings an inventory plugin sets."""

import json
import re
import sys


def unwrapped(item):
    return item["__ansible_unsafe"] if list(item) == ["__ansible_unsafe"] else item


with open(sys.argv[1], encoding="utf-8") as handle:
    output = handle.read()
listed = json.loads(output[re.search(r"^\{$", output, re.M).start() :], object_hook=unwrapped)
with open(sys.argv[2], "w", encoding="utf-8") as handle:
    json.dump(listed, handle, indent=2, sort_keys=True)
hostvars = listed["_meta"]["hostvars"]
assert sorted(hostvars) == ["it-inv-sql-01", "it-inv-web-01", "it-inv-web-02", "it-inv-win-01"], sorted(hostvars)

web = hostvars["it-inv-web-01"]
assert web["credvault_resource_name"] == "it-inv-web-01", web
assert web["credvault_dns_name"] == "it-inv-web-01", web
assert web["credvault_resource_type"] == "Linux", web
assert web["credvault_owner"] == "admin", web
assert web["credvault_accounts"] == ["deploy", "root"], web
assert web["credvault_resource_groups"] == ["it-inv Web Servers"], web
assert web["ansible_user"] == "deploy", web
# Environment only, the one custom field allowed: not Console Password, Passwort, Kennwort... (Character fields that
# hold a secret), nor it-inv Break-glass (a Password-typed field).
for name, variables in hostvars.items():
    assert list(variables["credvault_custom_fields"]) == ["Environment"], (name, variables)
assert hostvars["it-inv-sql-01"]["credvault_resource_type"] == "MS SQL server"
assert hostvars["it-inv-win-01"]["credvault_resource_groups"] == []

groups = {name: sorted(group.get("hosts", [])) for name, group in listed.items() if name != "_meta"}
assert groups["vault_type_linux"] == ["it-inv-web-01", "it-inv-web-02"], groups
assert groups["vault_type_windows"] == ["it-inv-win-01"], groups
assert groups["vault_type_ms_sql_server"] == ["it-inv-sql-01"], groups
assert groups["vault_group_it_inv_web_servers"] == ["it-inv-web-01", "it-inv-web-02"], groups
assert groups["env_production"] == ["it-inv-web-01", "it-inv-win-01"], groups
assert groups["env_staging"] == ["it-inv-sql-01", "it-inv-web-02"], groups
print("list checked: %d hosts" % len(hostvars))
