"""WSL distributions' own launchers and unregistering (S-RULE-124); devices and drivers (S-RULE-125)."""

from __future__ import annotations

import pytest

from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import effect_rows, ps, reason_of

K = EffectKind


@requirement("S-RULE-124")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ubuntu run rm -rf /mnt/c/Windows/System32", ("protected-place-delete", "deny")),
        ("ubuntu2204.exe run rm -rf /mnt/c/Windows/System32", ("protected-place-delete", "deny")),
        (
            "C:\\Users\\me\\AppData\\Local\\Microsoft\\WindowsApps\\kali.exe run rm /mnt/c/Windows/System32/hal.dll",
            (
                "protected-place-delete",
                "deny",
            ),
        ),
        ("debian -c 'rm -rf /mnt/c/Program\\ Files'", ("protected-place-delete", "deny")),
        ("ubuntu run ls /mnt/c", None),
        ("ubuntu config --default-user root", None),
        ("ubuntu install --root", None),
    ],
)
def test_a_distribution_launcher_runs_linux_commands_as_wsl_does(command: str, expected: object) -> None:
    """S-RULE-124: `run …` and `-c "…"` are read as `wsl` reads its command; other verbs run no command line."""
    assert ps(command) == expected


@requirement("S-RULE-124")
@pytest.mark.parametrize(
    ("command", "target", "detail"),
    [
        ("wsl --unregister Ubuntu", "\\\\wsl.localhost\\Ubuntu", "wsl --unregister"),
        ('wsl.exe --unregister "Ubuntu-22.04"', "\\\\wsl.localhost\\Ubuntu-22.04", "wsl --unregister"),
        ("wslconfig /u Debian", "\\\\wsl.localhost\\Debian", "wslconfig /u"),
        ("wslconfig /unregister Debian", "\\\\wsl.localhost\\Debian", "wslconfig /unregister"),
        ("wsl --unregister", None, "wsl --unregister"),
    ],
)
def test_unregistering_a_distribution_deletes_its_whole_file_system(
    command: str, target: str | None, detail: str
) -> None:
    """S-RULE-124: a recursive delete of the distribution's share, refused as such."""
    assert (K.DELETE_RECURSIVE, target, detail) in effect_rows(command)
    assert ps(command) == ("recursive-delete", "deny")


@requirement("S-RULE-124")
@pytest.mark.parametrize("command", ["wsl --list --verbose", "wsl --shutdown", "wsl -d Ubuntu -- ls", "wslconfig /l"])
def test_wsl_management_that_deletes_nothing_passes(command: str) -> None:
    """S-RULE-124: listing and stopping distributions pass."""
    assert ps(command) is None


@requirement("S-RULE-125")
@pytest.mark.parametrize(
    ("command", "detail"),
    [
        ("Disable-PnpDevice -InstanceId * -Confirm:$false", "Disable-PnpDevice"),
        ("Get-PnpDevice -FriendlyName *camera* | Disable-PnpDevice -Confirm:$false", "Disable-PnpDevice"),
        ("pnputil /delete-driver oem1.inf /uninstall /force", "pnputil /delete-driver"),
        ('pnputil /remove-device "USB\\VID_046D&PID_C52B"', "pnputil /remove-device"),
        ("pnputil /disable-device ACPI\\PNP0303\\4&1", "pnputil /disable-device"),
        ("pnputil -f -d oem3.inf", "pnputil -d"),
        ("devcon remove *", "devcon remove"),
        ("devcon disable =keyboard", "devcon disable"),
        ("devcon.exe dp_delete oem2.inf", "devcon dp_delete"),
    ],
)
def test_disabling_or_removing_a_device_or_driver_asks(command: str, detail: str) -> None:
    """S-RULE-125: the keyboard, the screen or a disk could go, and stay off after a restart."""
    assert ps(command) == ("device-change", "ask")
    assert f"disables or removes a device or its driver ({detail})" in reason_of(command)


@requirement("S-RULE-125")
@pytest.mark.parametrize(
    "command",
    [
        "Get-PnpDevice -Class Camera",
        "pnputil /enum-drivers",
        "pnputil /enum-devices /connected",
        "devcon status *",
        "devcon find *",
        "Enable-PnpDevice -InstanceId 'USB\\X' -Confirm:$false",
    ],
)
def test_listing_devices_and_enabling_one_pass(command: str) -> None:
    """S-RULE-125: reading what is there, and turning a device back on."""
    assert ps(command) is None


@requirement("S-RULE-124")
@pytest.mark.parametrize(
    "command",
    [
        r'bash -c "rm /mnt/c/Program\ Files/App/x.dll"',
        r"wsl rm /mnt/c/Program\ Files/App/x.dll",
        r"bash -c 'rm /mnt/c/Windows/System32/hal.d\l\l'",
        r"""bash -c 'bash -c "rm /mnt/c/Program\\ Files/App/x.dll"'""",
    ],
)
def test_linux_command_lines_are_split_as_a_posix_shell_splits_them(command: str) -> None:
    """S-RULE-124: a backslash escapes the next character (a blank stays in the word), once per shell."""
    assert ps(command) == ("protected-place-delete", "deny")
