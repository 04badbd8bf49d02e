"""The criteria of a dynamic resource group, and which resources meet them.

The spec's group input: ``andor`` (sample ``and``), ``NoOfCriteria`` (number)
and, for each criterion N from 1 to NoOfCriteria, ``condition_N`` (samples
RESOURCENAME, LOGINNAME), ``operator_N`` (sample CONTAINS) and
``valuefield_N``. The spec shows no other conditions or operators; the
simulator accepts these (a real vault's criteria editor offers the like):

- conditions: RESOURCENAME, LOGINNAME (the names of the resource's accounts),
  RESOURCETYPE, DNSNAME, DESCRIPTION, DEPARTMENT, LOCATION, RESOURCEURL;
- operators: CONTAINS, NOT_CONTAINS, EQUALS, NOT_EQUALS, STARTS_WITH,
  ENDS_WITH, in any case, with or without underscores (``startsWith`` too;
  ``DOES_NOT_CONTAIN`` is NOT_CONTAINS).

Comparisons ignore case. LOGINNAME meets a positive operator when any
account name does; a negated operator (NOT_...) holds when the positive one
does not. ``and`` needs every criterion, ``or`` any one.
"""

from vault_simulator.core.finders import accounts_of
from vault_simulator.core.inputs import text
from vault_simulator.core.replies import Failure

AND, OR = "and", "or"
_FIELDS = {
    "RESOURCENAME": lambda store, resource: [resource["name"]],
    "LOGINNAME": lambda store, resource: [account["name"] for account in accounts_of(store, resource)],
    "RESOURCETYPE": lambda store, resource: [resource["type"]],
    "DNSNAME": lambda store, resource: [resource["dns_name"]],
    "DESCRIPTION": lambda store, resource: [resource["description"]],
    "DEPARTMENT": lambda store, resource: [resource["department"]],
    "LOCATION": lambda store, resource: [resource["location"]],
    "RESOURCEURL": lambda store, resource: [resource["url"]],
}
_TESTS = {
    "CONTAINS": lambda value, wanted: wanted in value,
    "EQUALS": lambda value, wanted: value == wanted,
    "STARTS_WITH": lambda value, wanted: value.startswith(wanted),
    "ENDS_WITH": lambda value, wanted: value.endswith(wanted),
}
# Operator spellings, compared without case and underscores: (positive test, negated).
_OPERATORS = {
    "CONTAINS": ("CONTAINS", False),
    "NOTCONTAINS": ("CONTAINS", True),
    "DOESNOTCONTAIN": ("CONTAINS", True),
    "EQUALS": ("EQUALS", False),
    "NOTEQUALS": ("EQUALS", True),
    "STARTSWITH": ("STARTS_WITH", False),
    "ENDSWITH": ("ENDS_WITH", False),
}
OPERATOR_NAMES = ("CONTAINS", "NOT_CONTAINS", "EQUALS", "NOT_EQUALS", "STARTS_WITH", "ENDS_WITH")


def read_criteria(details):
    """``{"andor", "criteria": [{"condition", "operator", "value"}]}`` from the group input."""
    andor = text(details, "andor", AND).strip().lower() or AND
    if andor not in (AND, OR):
        raise Failure("andor must be and or or")
    count = _criteria_count(details)
    return {"andor": andor, "criteria": [_criterion(details, number) for number in range(1, count + 1)]}


def meets(store, resource, criteria):
    """True when ``resource`` meets the dynamic group's ``criteria``."""
    results = (_holds(store, resource, criterion) for criterion in criteria["criteria"])
    return all(results) if criteria["andor"] == AND else any(results)


def _criteria_count(details):
    value = details.get("NoOfCriteria")
    count = int(value) if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()) else 0
    if isinstance(value, bool) or count < 1:
        raise Failure("A dynamic resource group needs NoOfCriteria, a number of at least 1")
    return count


def _criterion(details, number):
    condition = text(details, f"condition_{number}").strip().upper()
    if condition not in _FIELDS:
        raise Failure(f"condition_{number} must be one of {', '.join(_FIELDS)}")
    operator = text(details, f"operator_{number}").strip()
    if operator.upper().replace("_", "") not in _OPERATORS:
        raise Failure(f"operator_{number} must be one of {', '.join(OPERATOR_NAMES)}")
    value = text(details, f"valuefield_{number}")
    if not value.strip():
        raise Failure(f"valuefield_{number} is required")
    return {"condition": condition, "operator": operator.upper().replace("_", ""), "value": value}


def _holds(store, resource, criterion):
    test_name, negated = _OPERATORS[criterion["operator"]]
    test, wanted = _TESTS[test_name], criterion["value"].lower()
    values = _FIELDS[criterion["condition"]](store, resource)
    return any(test(value.lower(), wanted) for value in values) != negated
