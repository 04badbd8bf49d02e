"""The built-in password policies, in the spec's POLICIES item shape.

The spec's sample names Low, Medium, Strong (the default policy) and
Offline Password File; every value is a string.
"""


def _policy(policy_id, name, description, min_length, max_length, mixed_case, special, numerals,
            validity, reuse, default=False):
    return {
        "POLICYID": policy_id,
        "POLICYNAME": name,
        "DESCRIPTION": description,
        "DEFAULTPOLICY": "true" if default else "false",
        "PASSWORD MIN LENGTH": str(min_length),
        "PASSWORD MAX LENGTH": str(max_length),
        "ENFORCE MIXED CASE": "true" if mixed_case else "false",
        "ENFORCE SPL CHARS": "true" if special else "false",
        "ENFORCE NUMERALS": "true" if numerals else "false",
        "ENFORCE STARTING WITH AN ALPHABET": "false",
        "NO OF SPL CHARS REQUIRED": "1" if special else "0",
        "NUMBER OF NUMERALS": "1" if numerals else "0",
        "NUMBER OF LOWERCASE CHARACTERS REQUIRED": "1" if mixed_case else "0",
        "NUMBER OF UPPERCASE CHARACTERS REQUIRED": "1" if mixed_case else "0",
        "CHECK DICTIONARY WORD": "false",
        "DICTIONARY NAME": "",
        "CHECK ANAGRAM OF LOGINNAME": "false",
        "PASSWORD CAN CONTAIN LOGINNAME": "true",
        "CHECK SEQUENCE": "false",
        "SEQUENCE LENGTH": "0",
        "CHECK NUMERIC SEQUENCE": "false",
        "CHECK CONSECUTIVE SEQUENCE": "false",
        "CHECK ALPHABET SEQUENCE": "false",
        "CHECK KEYBOARD SEQUENCE": "false",
        "KEYBOARD LAYOUT": "QWERTY",
        "CHECK OBVIOUS SUBSTITUTION": "false",
        "CHECK REPEATED SUBSTRING": "false",
        "CHECK SIMILARITY OF PASSWORDS": "false",
        "NUMBER OF PASSWORDS TO CHECK FOR SIMILARITY": "0",
        "REUSE OF OLD PASSWORDS": f"Don't allow last {reuse} passwords",
        "PASSWORD VALIDITY PERIOD": str(validity),
    }


PASSWORD_POLICIES = [
    _policy("1", "Low", "Low strength passwords", 4, 12, False, False, False, 0, 0),
    _policy("2", "Medium", "Medium strength passwords", 8, 16, True, False, True, 90, 2),
    _policy("3", "Strong", "Strong passwords", 10, 32, True, True, True, 60, 4, default=True),
    _policy("4", "Offline Password File", "Protects exported password files", 12, 64, True, True, True, 0, 0),
]

POLICY_NAMES = tuple(p["POLICYNAME"] for p in PASSWORD_POLICIES)
DEFAULT_POLICY = next(p["POLICYNAME"] for p in PASSWORD_POLICIES if p["DEFAULTPOLICY"] == "true")
