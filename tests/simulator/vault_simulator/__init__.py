"""A local HTTPS simulator of the credential vault REST API (credvault.vault tests).

``core`` is the framework and what several areas share; ``areas`` holds one package
per area of the spec (resources, passwords, users, ...); ``cli`` is the
``vault-simulator`` command. See tests/simulator/README.md.
"""
