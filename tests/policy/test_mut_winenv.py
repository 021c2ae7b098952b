"""The standard Windows environment the analysers expand (S-RULE-15); found by mutation testing."""

from __future__ import annotations

import pytest

from policy.rules.shell.winenv import env_value
from tests._requirements import requirement


@requirement("S-RULE-15")
@pytest.mark.parametrize(
    ("name", "value"),
    [("SystemRoot", "C:\\Windows"), ("computername", "DESKTOP"), ("COMPUTERNAME", "DESKTOP"), ("NoSuchVariable", None)],
)
def test_a_variable_has_its_standard_value_whatever_the_case_of_its_name(name: str, value: str | None) -> None:
    """S-RULE-15: `%SystemRoot%`, `%systemroot%` and `$env:SYSTEMROOT` name the same variable."""
    assert env_value(name) == value
    assert env_value(name, {"SYSTEMROOT": "D:\\Win"}) == ("D:\\Win" if name == "SystemRoot" else None)
