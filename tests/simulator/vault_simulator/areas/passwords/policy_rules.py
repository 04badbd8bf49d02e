"""The password policy engine: checking a password against a policy, and
generating one that satisfies it.

A policy is an item of ``core.password_policies.PASSWORD_POLICIES``; a key
that a policy leaves out turns its rule off. Where the spec names a
rule but not its meaning, the simulator reads it so:

- ENFORCE MIXED CASE asks for at least one lower-case and one upper-case
  letter; NUMBER OF LOWERCASE/UPPERCASE CHARACTERS REQUIRED raise those counts.
  NO OF SPL CHARS REQUIRED and NUMBER OF NUMERALS count only when ENFORCE SPL
  CHARS or ENFORCE NUMERALS is on (at least one then). A special character
  is any character that is neither a letter nor a digit.
- CHECK SEQUENCE switches the four sequence checks, each of SEQUENCE LENGTH
  characters, ascending or descending, in any case: CHECK NUMERIC SEQUENCE
  (``1234``), CHECK ALPHABET SEQUENCE (``abcd``), CHECK KEYBOARD SEQUENCE
  (adjacent keys of a row of the KEYBOARD LAYOUT, QWERTY: ``qwer``) and
  CHECK CONSECUTIVE SEQUENCE (one character repeated: ``aaaa``).
- CHECK REPEATED SUBSTRING refuses a run of 3 or more characters that occurs
  again later in the password (``abcXabc``).
- PASSWORD CAN CONTAIN LOGINNAME ``false`` refuses a password containing the
  login name (any case); CHECK ANAGRAM OF LOGINNAME refuses a password made of
  exactly the login name's characters. Both need a login name to check.
- REUSE OF OLD PASSWORDS (``Don't allow last N passwords``) refuses any of
  the account's last N passwords, the current one included.
"""

import re
import string

from vault_simulator.core.password_policies import PASSWORD_POLICIES, checks_passwords

# Special characters a generated password draws from: no quotes, backslash or space,
# which clients would have to escape.
GENERATED_SPECIALS = "!#$%&*+-.:=?@^_~"
_KEYBOARD_ROWS = {"QWERTY": ("1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm")}
_REPEATED_SUBSTRING_LENGTH = 3
_GENERATION_ATTEMPTS = 1000
# How long a generated password is, within the policy's bounds.
_GENERATED_LENGTH = 12
_REUSE = re.compile(r"Don't allow last (\d+) passwords")


def policy_named(name):
    """The policy called ``name`` or ``None``."""
    return next((p for p in PASSWORD_POLICIES if p["POLICYNAME"] == name), None)


def policy_with_id(policy_id):
    """The policy whose POLICYID is ``policy_id`` or ``None``."""
    return next((p for p in PASSWORD_POLICIES if p["POLICYID"] == policy_id), None)


def reuse_count(policy):
    """N of REUSE OF OLD PASSWORDS (``Don't allow last N passwords``)."""
    match = _REUSE.fullmatch(policy.get("REUSE OF OLD PASSWORDS", ""))
    return int(match.group(1)) if match else 0


# How many previous passwords an account remembers: the longest reuse rule.
HISTORY_SIZE = max(reuse_count(p) for p in PASSWORD_POLICIES)


@checks_passwords
def broken_rules(policy, password, login_name="", previous=()):
    """What ``password`` breaks of ``policy``, one phrase per rule, in the policy's order.

    ``previous`` are the account's passwords, newest (the current one) first.
    """
    broken = _length_rules(policy, password) + _class_rules(policy, password)
    broken += _login_name_rules(policy, password, login_name) + _pattern_rules(policy, password)
    return broken + reuse_rules(policy, password, previous)


def reuse_rules(policy, password, previous):
    """REUSE OF OLD PASSWORDS alone: ``password`` must not be one of ``previous[:N]``."""
    count = reuse_count(policy)
    if count and password in list(previous)[:count]:
        return [f"must not be one of the last {count} passwords"]
    return []


def remembered(account):
    """``account``'s passwords, newest (the current one) first."""
    return [account["password"], *account.get("password_history", [])]


def remember_change(account, new_password):
    """Make ``new_password`` the current password of ``account`` (not stored yet),
    keeping the replaced one in its history."""
    account["password_history"] = remembered(account)[:HISTORY_SIZE]
    account["password"] = new_password


def generate_password(policy, rng, login_name=""):
    """A password satisfying ``policy`` for an account called ``login_name`` (no history), drawn from ``rng``."""
    minimums = _class_minimums(policy)
    length = min(
        _number(policy, "PASSWORD MAX LENGTH"),
        max(_number(policy, "PASSWORD MIN LENGTH"), _GENERATED_LENGTH, sum(minimums.values())),
    )
    pools = {
        "lower": string.ascii_lowercase,
        "upper": string.ascii_uppercase,
        "digit": string.digits,
        "special": GENERATED_SPECIALS,
    }
    filler = string.ascii_letters + string.digits + (GENERATED_SPECIALS if minimums["special"] else "")
    for _attempt in range(_GENERATION_ATTEMPTS):
        characters = [rng.choice(pools[kind]) for kind, count in minimums.items() for _index in range(count)]
        characters += [rng.choice(filler) for _index in range(length - len(characters))]
        rng.shuffle(characters)
        password = "".join(characters)
        if not broken_rules(policy, password, login_name):
            return password
    raise RuntimeError(f"could not generate a password for policy {policy['POLICYNAME']}")


def _flag(policy, key):
    return policy.get(key, "false") == "true"


def _number(policy, key):
    return int(policy.get(key, "0") or "0")


def _class_minimums(policy):
    """The least number of lower, upper, digit and special characters ``policy`` asks for."""
    mixed = 1 if _flag(policy, "ENFORCE MIXED CASE") else 0
    return {
        "lower": max(mixed, _number(policy, "NUMBER OF LOWERCASE CHARACTERS REQUIRED")),
        "upper": max(mixed, _number(policy, "NUMBER OF UPPERCASE CHARACTERS REQUIRED")),
        "digit": max(1, _number(policy, "NUMBER OF NUMERALS")) if _flag(policy, "ENFORCE NUMERALS") else 0,
        "special": max(1, _number(policy, "NO OF SPL CHARS REQUIRED")) if _flag(policy, "ENFORCE SPL CHARS") else 0,
    }


def _length_rules(policy, password):
    low, high = _number(policy, "PASSWORD MIN LENGTH"), _number(policy, "PASSWORD MAX LENGTH")
    if len(password) < low:
        return [f"must be at least {low} characters long"]
    if high and len(password) > high:
        return [f"must be at most {high} characters long"]
    return []


_CLASS_WORDS = {
    "lower": "lower-case letter",
    "upper": "upper-case letter",
    "digit": "numeral",
    "special": "special character",
}


def _class_rules(policy, password):
    counts = {
        "lower": sum(1 for c in password if c.islower()),
        "upper": sum(1 for c in password if c.isupper()),
        "digit": sum(1 for c in password if c.isdigit()),
        "special": sum(1 for c in password if not c.isalnum()),
    }
    broken = [
        f"must contain at least {minimum} {_CLASS_WORDS[kind]}{'s' if minimum > 1 else ''}"
        for kind, minimum in _class_minimums(policy).items()
        if counts[kind] < minimum
    ]
    if _flag(policy, "ENFORCE STARTING WITH AN ALPHABET") and not password[:1].isalpha():
        broken.append("must start with a letter")
    return broken


def _login_name_rules(policy, password, login_name):
    if not login_name:
        return []
    broken = []
    if policy.get("PASSWORD CAN CONTAIN LOGINNAME", "true") == "false" and login_name.lower() in password.lower():
        broken.append("must not contain the login name")
    if _flag(policy, "CHECK ANAGRAM OF LOGINNAME") and sorted(password.lower()) == sorted(login_name.lower()):
        broken.append("must not be an anagram of the login name")
    return broken


def _pattern_rules(policy, password):
    broken = []
    length = _number(policy, "SEQUENCE LENGTH")
    if _flag(policy, "CHECK SEQUENCE") and length > 1:
        layout = _KEYBOARD_ROWS.get(policy.get("KEYBOARD LAYOUT"), _KEYBOARD_ROWS["QWERTY"])
        checks = (
            ("CHECK NUMERIC SEQUENCE", "a numeric sequence", (string.digits,)),
            ("CHECK ALPHABET SEQUENCE", "an alphabet sequence", (string.ascii_lowercase,)),
            ("CHECK KEYBOARD SEQUENCE", "a keyboard sequence", layout),
        )
        for key, words, rows in checks:
            if _flag(policy, key) and _has_sequence(password.lower(), rows, length):
                broken.append(f"must not contain {words} of {length} characters")
        if _flag(policy, "CHECK CONSECUTIVE SEQUENCE") and re.search(rf"(.)\1{{{length - 1}}}", password):
            broken.append(f"must not repeat a character {length} times in a row")
    if _flag(policy, "CHECK REPEATED SUBSTRING") and _has_repeated_substring(password):
        broken.append(f"must not repeat a substring of {_REPEATED_SUBSTRING_LENGTH} or more characters")
    return broken


def _has_sequence(text, rows, length):
    """True when ``text`` holds ``length`` characters that follow each other in a row, either way."""
    for row in rows:
        for start in range(len(row) - length + 1):
            run = row[start : start + length]
            if run in text or run[::-1] in text:
                return True
    return False


def _has_repeated_substring(password):
    size = _REPEATED_SUBSTRING_LENGTH
    return any(password.find(password[i : i + size], i + size) != -1 for i in range(len(password) - size + 1))
