"""``--seed``: the same requests give the same generated values."""

import pytest


def generated_values(vault):
    """Tokens and ids the vault generates for one fixed sequence of requests."""
    tokens = [vault.create_api_user(f"user{number}") for number in range(3)]
    ids = vault.create_resource("web01")
    return tokens, ids


def test_same_seed_same_tokens_and_ids(make_vault):
    first, second = generated_values(make_vault(seed=42)), generated_values(make_vault(seed=42))
    assert first == second
    assert len(set(first[0])) == 3


def test_different_seed_or_no_seed_differs(make_vault):
    seeded = generated_values(make_vault(seed=42))
    assert generated_values(make_vault(seed=43))[0] != seeded[0]
    assert generated_values(make_vault())[0] != generated_values(make_vault())[0]


def test_fixed_admin_token_with_a_seed_still_gives_reproducible_users(make_vault):
    one = make_vault(seed=1, admin_token="ADMIN")
    two = make_vault(seed=1, admin_token="ADMIN")
    assert one.token == two.token == "ADMIN"
    assert one.create_api_user("x") == two.create_api_user("x")


@pytest.mark.parametrize("seed", [0, 1, 2**40])
def test_seeded_tokens_look_like_vault_tokens(make_vault, seed):
    token = make_vault(seed=seed).create_api_user("api")
    assert len(token) == 36 and token == token.upper() and token.count("-") == 4
