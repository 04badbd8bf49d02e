"""Conformance of the simulator to the spec's own tables (see test_conformance.py)."""
