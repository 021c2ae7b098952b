"""Protected processes and kill-everything patterns, spelled every way (S-RULE-19); found by mutation testing."""

from __future__ import annotations

import pytest

from policy.rules.processes import canonical_process, is_protected_process, kills_everything
from tests._requirements import requirement


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("name", "canonical"),
    [
        ("C:lsass.exe", "lsass"),  # drive-relative: the base name follows the colon
        ("'LSASS.EXE'", "lsass"),
        ("lsass.exe. ", "lsass"),
        ("Xerxes", "xerxes"),  # only quotes are stripped from the ends, not letters
        ("XLSASSX", "xlsassx"),
    ],
)
def test_a_process_name_has_one_canonical_spelling(name: str, canonical: str) -> None:
    """S-RULE-19: base name after `\\` or a drive colon, lower case, quotes and `.exe` and trailing dots dropped."""
    assert canonical_process(name) == canonical


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("name", "protected"),
    [
        ("C:lsass.exe", True),
        ("XLSASSX", False),
        ("l_ass%", True),  # WMI `like`: `_` is any one character, `%` any run
        ("lsa_s", False),  # without `%` it is no WMI pattern: `_` is a plain character
        ("lsass.e*", True),  # matches lsass.exe
        ("lsass.*", True),
        ("ls*x.exe.exe", False),  # canonical form ls*x.exe: no protected name starts with ls and ends with x
        ("sv*?xyz.exe.exe", False),
        ("sv*.exe", True),
    ],
)
def test_a_pattern_is_protected_when_it_could_match_a_protected_process(name: str, protected: bool) -> None:
    """S-RULE-19: globs and WMI patterns count when they reach a protected name, with or without `.exe`."""
    assert is_protected_process(name) is protected


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("pattern", "everything"),
    [
        ("$", False),
        ("^", False),
        ("^$", False),
        (".*", True),
        ("^.+$", True),
        ("*.ex?", True),  # every name.exe matches
        ("*.ex", False),
    ],
)
def test_only_a_pattern_matching_every_name_kills_everything(pattern: str, everything: bool) -> None:
    """S-RULE-19: regex anchors alone match no name; `.*`, `.+` and a glob that fits every name.exe do."""
    assert kills_everything(pattern) is everything
