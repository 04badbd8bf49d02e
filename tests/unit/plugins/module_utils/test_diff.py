# -*- coding: utf-8 -*-
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""The difference tracker: real differences only, secrets masked."""

from __future__ import annotations

from ansible_collections.credvault.vault.plugins.module_utils._diff import DifferenceTracker


def test_tracker_reports_only_real_differences_and_masks_secrets():
    tracker = DifferenceTracker()
    assert not tracker.compare("location", "Paris", "Paris")
    assert not tracker.compare("department", "Ops", None)
    assert tracker.compare("description", "old", "new")
    tracker.record("password", None, None, True, secret=True)
    assert tracker.changed and tracker.changed_names == ["description", "password"]
    assert tracker.diff() == {
        "before": {"location": "Paris", "department": "Ops", "description": "old", "password": "<hidden>"},
        "after": {"location": "Paris", "department": "Ops", "description": "new", "password": "<hidden, changed>"},
    }


def test_unchanged_secret_is_still_masked():
    tracker = DifferenceTracker()
    tracker.record("password", "p1", "p1", False, secret=True)
    assert not tracker.changed
    assert "p1" not in str(tracker.diff())


def test_a_change_no_diff_can_show_is_changed_without_a_diff():
    tracker = DifferenceTracker()
    tracker.record_unseen("agent_key")
    assert tracker.changed and not tracker.recorded


def test_headers_name_the_diffs_sides():
    tracker = DifferenceTracker()
    tracker.after["input"] = "sent"
    tracker.headers.update(before_header="cannot be read", after_header="what is sent")
    assert tracker.diff() == {
        "before": {},
        "after": {"input": "sent"},
        "before_header": "cannot be read",
        "after_header": "what is sent",
    }
