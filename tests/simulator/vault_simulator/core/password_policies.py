"""The vault's password policies, in the spec's POLICIES item shape (in the core because
resources, accounts, users and resource groups name policies; the passwords area
lists them and checks passwords against them).

The spec's sample names Low, Medium, Strong (the default policy) and
Offline Password File, plus one custom policy ("Database Accounts" here).
Every value is a string, and "some keys appear only on some policies": Low
and Offline Password File leave out the dictionary, sequence, pattern and
similarity keys, which the policy engine (``areas.passwords.policy_rules``) reads as off.
PASSWORD VALIDITY PERIOD is 0 in Low, the least strict policy (days
elsewhere; the spec shows no unit). REUSE OF OLD PASSWORDS reads
"Don't allow last N passwords". No policy turns on CHECK DICTIONARY WORD,
CHECK OBVIOUS SUBSTITUTION or CHECK SIMILARITY OF PASSWORDS: the simulator
has no dictionary and does not imitate those checks.
"""


def _yes_no(value):
    return "true" if value else "false"


def _policy(identity, lengths, classes, aging, patterns=None):
    """``identity`` is (POLICYID, POLICYNAME, DESCRIPTION), ``lengths`` (min, max),
    ``aging`` (validity period, number of old passwords refused). ``classes`` holds
    the character-class rules: the flags mixed_case and alphabet_first, and the
    minimum counts special, numerals, lower and upper (a count of 0 leaves ENFORCE
    SPL CHARS or ENFORCE NUMERALS off). ``patterns`` (from ``_pattern_rules``) adds
    the keys only some policies carry."""
    policy_id, name, description = identity
    validity, reuse = aging
    return {
        "POLICYID": policy_id,
        "POLICYNAME": name,
        "DESCRIPTION": description,
        "DEFAULTPOLICY": "false",
        "PASSWORD MIN LENGTH": str(lengths[0]),
        "PASSWORD MAX LENGTH": str(lengths[1]),
        "ENFORCE MIXED CASE": _yes_no(classes.get("mixed_case")),
        "ENFORCE SPL CHARS": _yes_no(classes.get("special")),
        "ENFORCE NUMERALS": _yes_no(classes.get("numerals")),
        "ENFORCE STARTING WITH AN ALPHABET": _yes_no(classes.get("alphabet_first")),
        "NO OF SPL CHARS REQUIRED": str(classes.get("special", 0)),
        "NUMBER OF NUMERALS": str(classes.get("numerals", 0)),
        "NUMBER OF LOWERCASE CHARACTERS REQUIRED": str(classes.get("lower", 0)),
        "NUMBER OF UPPERCASE CHARACTERS REQUIRED": str(classes.get("upper", 0)),
        **(patterns or {}),
        "REUSE OF OLD PASSWORDS": f"Don't allow last {reuse} passwords",
        "PASSWORD VALIDITY PERIOD": str(validity),
    }


def _as_default(policy):
    return {**policy, "DEFAULTPOLICY": "true"}


def _pattern_rules(sequence_length, login_name_allowed=False):
    """The dictionary, login-name, sequence, pattern and similarity keys."""
    return {
        "CHECK DICTIONARY WORD": "false",
        "DICTIONARY NAME": "",
        "CHECK ANAGRAM OF LOGINNAME": _yes_no(not login_name_allowed),
        "PASSWORD CAN CONTAIN LOGINNAME": _yes_no(login_name_allowed),
        "CHECK SEQUENCE": _yes_no(sequence_length),
        "SEQUENCE LENGTH": str(sequence_length),
        "CHECK NUMERIC SEQUENCE": _yes_no(sequence_length),
        "CHECK CONSECUTIVE SEQUENCE": _yes_no(sequence_length),
        "CHECK ALPHABET SEQUENCE": _yes_no(sequence_length),
        "CHECK KEYBOARD SEQUENCE": _yes_no(sequence_length),
        "KEYBOARD LAYOUT": "QWERTY",
        "CHECK OBVIOUS SUBSTITUTION": "false",
        "CHECK REPEATED SUBSTRING": _yes_no(sequence_length),
        "CHECK SIMILARITY OF PASSWORDS": "false",
        "NUMBER OF PASSWORDS TO CHECK FOR SIMILARITY": "0",
    }


PASSWORD_POLICIES = [
    _policy(("1", "Low", "Low strength passwords"), (4, 64), {}, (0, 0)),
    _policy(
        ("2", "Medium", "Medium strength passwords"),
        (8, 32),
        {"mixed_case": True, "numerals": 1, "lower": 1, "upper": 1},
        (90, 2),
        patterns=_pattern_rules(0, login_name_allowed=True),
    ),
    _as_default(
        _policy(
            ("3", "Strong", "Strong passwords: the default policy"),
            (10, 32),
            {"mixed_case": True, "special": 1, "numerals": 1, "alphabet_first": True, "lower": 1, "upper": 1},
            (60, 4),
            patterns=_pattern_rules(4),
        )
    ),
    _policy(
        ("4", "Offline Password File", "Protects the password files exported for offline access"),
        (12, 64),
        {"mixed_case": True, "special": 1, "numerals": 1, "lower": 1, "upper": 1},
        (30, 3),
    ),
    _policy(
        ("5", "Database Accounts", "Custom policy for database service accounts"),
        (16, 40),
        {"mixed_case": True, "special": 2, "numerals": 2, "alphabet_first": True, "lower": 2, "upper": 2},
        (30, 6),
        patterns=_pattern_rules(3),
    ),
]

POLICY_NAMES = tuple(p["POLICYNAME"] for p in PASSWORD_POLICIES)
DEFAULT_POLICY = next(p["POLICYNAME"] for p in PASSWORD_POLICIES if p["DEFAULTPOLICY"] == "true")


# The policy engine (``areas.passwords.policy_rules``) registers itself here, for the areas that show
# whether a password complies with its policy (the account detail of the real dialect).
_RULE_CHECKS = []


def checks_passwords(check):
    """Register ``check(policy, password, login_name)``: the phrases of the rules of ``policy`` the password breaks."""
    _RULE_CHECKS.append(check)
    return check


def broken_policy_rules(policy_name, password, login_name=""):
    """What ``password`` breaks of the policy called ``policy_name`` (nothing for an unknown policy)."""
    policy = next((p for p in PASSWORD_POLICIES if p["POLICYNAME"] == policy_name), None)
    if policy is None:
        return []
    return [phrase for check in _RULE_CHECKS for phrase in check(policy, password, login_name)]
