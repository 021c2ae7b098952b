"""`-f` format specifiers and `Trim` with several characters, folded as .NET does (S-RULE-13).

Found by a mutation helper: `'…Login D{0:x}ta' -f 10` folded to `Login D10ta` (PowerShell formats 10 in hex, `a`),
and `'…credentialsxy'.TrimEnd('x','y')` trimmed only the `x`, so both reads of a credential store passed.
"""

from __future__ import annotations

import pytest

from policy.rules.shell.ps_operators import string_method
from policy.rules.shell.ps_text import net_format
from tests._requirements import requirement
from tests.policy.verdicts import ps


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("fmt", "value", "expected"),
    [
        ("{0:x}", 10, "a"),
        ("{0:X}", 255, "FF"),
        ("{0:x4}", 255, "00ff"),
        ("{0:D3}", 7, "007"),
        ("{0:d}", -7, "-7"),
        ("{0:D3}", -7, "-007"),
        ("{0:x}", "ab", "ab"),  # a string ignores the specifier
        ("{0,5:x}", 10, "    a"),
        ("{0:}", 10, "10"),
        ("{0:N2}", 1, None),  # not reproduced: not constant, never a guess
        ("{0:x}", -1, None),  # .NET prints the two's complement of the Int32
        ("{0:x}", 1.5, None),
        ("{0:x}", True, None),
    ],
)
def test_a_format_specifier_formats_a_number_as_dotnet_does(fmt: str, value: object, expected: str | None) -> None:
    """S-RULE-13: hexadecimal and zero-padded decimal for integers; a string as it is; anything else not exact."""
    text = value if isinstance(value, str) else str(value)
    assert net_format(fmt, [text], [value]) == expected


@requirement("S-RULE-13")
def test_a_specifier_without_the_arguments_value_is_not_exact() -> None:
    """S-RULE-13: the text alone cannot say whether `10` was a number (`a`) or a string (`10`)."""
    assert net_format("{0:x}", ["10"]) is None
    assert net_format("{0}", ["10"]) == "10"


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    ("method", "args", "expected"),
    [
        ("trimend", ["x", "y"], "credentials"),
        ("trimend", ["xy"], "credentials"),
        ("trimstart", ["c", "r"], "edentialsxy"),
        ("trim", ["x", "y", "c"], "redentials"),
        ("trim", [""], "credentialsxy"),
    ],
)
def test_trim_trims_every_character_it_is_handed(method: str, args: list[str], expected: str) -> None:
    """S-RULE-13: `Trim(params char[])`; an empty set trims white space (none here)."""
    assert string_method("credentialsxy", method, list(args)) == expected
    assert string_method("  padded ", "trim", [""]) == "padded"


@requirement("S-RULE-13")
@pytest.mark.parametrize(
    "command",
    [
        r"Get-Content ('C:\Users\me\AppData\Local\Google\Chrome\User Data\Default\Login D{0:x}ta' -f 10)",
        r"Get-Content ([string]::Format('C:\Users\me\.ssh\id_rs{0:x}', 10))",
        r"Get-Content ('C:\Users\me\.aws\credentialsxy'.TrimEnd('x','y'))",
    ],
)
def test_the_folded_path_is_the_credential_store_powershell_reads(command: str) -> None:
    """S-RULE-13: the reads the mis-folded values let through are refused."""
    assert ps(command) == ("credential-access", "deny")
