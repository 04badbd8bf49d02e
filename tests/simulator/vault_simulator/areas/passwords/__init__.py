"""Passwords: retrieving and changing an account's password, password policies
(list, generate, validate, and the rules behind them), the password workflow
(request, approve, reject, check out, check in) and remote password reset."""
