"""More places and spellings of stop 26: forfiles' per-file command (S-RULE-36), Windows Update's services
(S-RULE-37), regedit, the automatic-logon password, the policies that switch updates off or take the
person's own tools away, browser helper objects (S-RULE-39), security software uninstalled (S-RULE-40), text
piped into a shell (S-RULE-41)."""

from __future__ import annotations

import pytest

from policy.rules.match import load_rules
from tests._requirements import requirement

RULES = load_rules()
WINLOGON = "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon"


def _ids(tool: str, args: dict[str, object]) -> tuple[str, str] | None:
    hit = RULES.match(tool, args)
    return None if hit is None else (hit.rule_id, hit.action)


def _ps(command: str) -> tuple[str, dict[str, object]]:
    return "PowerShell", {"command": command}


@requirement("S-RULE-39")
@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (_ps("regedit /s C:\\t\\settings.reg"), ("dynamic-command", "ask")),
        (_ps("regedit.exe C:\\t\\settings.reg"), ("dynamic-command", "ask")),
        (_ps("regedt32 /s C:\\t\\settings.reg"), ("dynamic-command", "ask")),
        (("App", {"mode": "launch", "name": "regedit", "args": "/s C:\\t\\x.reg"}), ("dynamic-command", "ask")),
        (_ps("regedit /e C:\\t\\backup.reg HKEY_CURRENT_USER\\Software\\Contoso"), None),  # an export reads
        (_ps("regedit /e C:\\t\\sam.reg HKEY_LOCAL_MACHINE\\SAM"), ("credential-access", "deny")),
        # the editor's window: the agent's clicks there change keys unjudged (S-RULE-154)
        (_ps("regedit"), ("admin-console", "ask")),
        (("App", {"mode": "launch", "name": "regedit"}), ("admin-console", "ask")),
    ],
)
def test_regedit_with_a_file_imports_it_and_with_e_exports(
    call: tuple[str, dict[str, object]], expected: tuple[str, str] | None
) -> None:
    """S-RULE-39: a .reg file's values are not known, so an import is dynamic; an export is a read."""
    assert _ids(*call) == expected


@requirement("S-RULE-39")
@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (("Registry", {"mode": "get", "path": WINLOGON, "name": "DefaultPassword"}), ("credential-access", "deny")),
        (("Registry", {"mode": "get", "path": WINLOGON, "name": "AltDefaultPassword"}), ("credential-access", "deny")),
        (_ps(f"(Get-ItemProperty 'HKLM:{WINLOGON[4:]}').DefaultPassword"), ("credential-access", "deny")),
        (_ps(f"reg query '{WINLOGON}'"), ("credential-access", "deny")),  # the whole key holds it
        (_ps(f"reg query '{WINLOGON}' /v Shell"), None),
        # A whole-key read narrowed by Select-Object to named values reads only those.
        (_ps(f"Get-ItemProperty 'HKLM:{WINLOGON[4:]}' | Select-Object Shell, Userinit"), None),
        (_ps(f"Get-ItemProperty 'HKLM:{WINLOGON[4:]}' | Select-Object -ExpandProperty Shell"), None),
        (_ps(f"Get-ItemProperty 'HKLM:{WINLOGON[4:]}' | Select DefaultPassword"), ("credential-access", "deny")),
        (_ps(f"Get-ItemProperty 'HKLM:{WINLOGON[4:]}' | Select-Object *"), ("credential-access", "deny")),
        (_ps(f"Get-ItemProperty 'HKLM:{WINLOGON[4:]}' | Select-Object $names"), ("credential-access", "deny")),
        (_ps(f"Get-ItemProperty 'HKLM:{WINLOGON[4:]}'"), ("credential-access", "deny")),
        (("Registry", {"mode": "get", "path": WINLOGON, "name": "Userinit"}), None),
    ],
)
def test_the_automatic_logon_password_is_a_credential_store(
    call: tuple[str, dict[str, object]], expected: tuple[str, str] | None
) -> None:
    """S-RULE-39: Winlogon's DefaultPassword is kept in plain text; another named value of the key is not it."""
    assert _ids(*call) == expected


@requirement("S-RULE-39")
@pytest.mark.parametrize(
    ("path", "name", "expected"),
    [
        ("HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate\\AU", "NoAutoUpdate", "security-weakening"),
        (
            "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\WindowsUpdate",
            "DisableWindowsUpdateAccess",
            "security-weakening",
        ),
        (
            "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System",
            "DisableTaskMgr",
            "security-weakening",
        ),
        (
            "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System",
            "DisableRegistryTools",
            "security-weakening",
        ),
        (
            "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System",
            "DisableLockWorkstation",
            "security-weakening",
        ),
        ("HKCU\\Software\\Policies\\Microsoft\\Windows\\System", "DisableCMD", "security-weakening"),
        (
            "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Browser Helper Objects\\{0000}",
            "",
            "persistence-autostart",
        ),
        ("HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Policies\\System", "Wallpaper", None),
    ],
)
def test_update_and_user_tool_policies_are_security_settings(path: str, name: str, expected: str | None) -> None:
    """S-RULE-39: switching updates off or taking Task Manager, regedit or cmd away weakens the machine."""
    hit = RULES.match("Registry", {"mode": "set", "path": path, "name": name, "value": "1", "type": "DWord"})
    assert (hit.rule_id if hit else None) == expected


@requirement("S-RULE-36")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ('forfiles /p C:\\Windows\\System32 /c "cmd /c del @path"', ("protected-place-delete", "deny")),
        ('forfiles /p C:\\Windows\\System32 /m *.dll /c "cmd /c del @file"', ("protected-place-delete", "deny")),
        ('forfiles -p C:\\Users\\me\\Documents -s -c "cmd /c del @path"', ("wildcard-delete", "ask")),
        ('forfiles /p C:\\Users\\me\\Documents /m *.docx /c "cmd /c move @fname C:\\t"', ("wildcard-delete", "ask")),
        ('forfiles /c "cmd /c rd /s /q C:0x5cUsers0x5cme"', ("protected-place-delete", "deny")),
        ('forfiles /c "cmd /c echo 0x26 rd /s /q C:0x5cUsers"', ("protected-place-delete", "deny")),  # 0x26 is &
        ('forfiles /p $dir /c "cmd /c del @path"', ("dynamic-command", "ask")),
        ('forfiles /p C:\\t /m $mask /c "cmd /c del @path"', ("dynamic-command", "ask")),
        ('forfiles /p C:\\logs /m *.log /d -30 /c "cmd /c del @path"', None),
        ('forfiles /p C:\\logs /c "cmd /c echo @file @fdate"', None),
        ("forfiles /p C:\\logs /m *.log", None),  # a listing runs nothing
    ],
)
def test_forfiles_runs_its_command_on_the_files_its_folder_and_mask_name(
    command: str, expected: tuple[str, str] | None
) -> None:
    """S-RULE-36: `@path`/`@file`/`@fname`/`@relpath` are `"<folder>\\<mask>"`; `0xHH` is decoded."""
    assert _ids(*_ps(command)) == expected


@requirement("S-RULE-37")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Set-Service -Name wuauserv -StartupType Disabled", ("security-weakening", "deny")),
        ("Stop-Service UsoSvc -Force", ("security-weakening", "deny")),
        ("sc.exe config WaaSMedicSvc start= disabled", ("security-weakening", "deny")),
        ("net stop wuauserv", ("security-weakening", "deny")),
        ("Get-Service wuauserv, UsoSvc, WaaSMedicSvc", None),
        ("Restart-Service wuauserv", None),
        ("sc.exe query wuauserv", None),
    ],
)
def test_windows_updates_services_are_security_services(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-37: stopping or disabling Windows Update or its helpers weakens the machine; looking does not."""
    assert _ids(*_ps(command)) == expected


@requirement("S-RULE-37")
def test_windows_updates_service_key_is_a_security_setting() -> None:
    """S-RULE-37: the same through the Registry tool, on the service's own key."""
    args = {"mode": "set", "path": "HKLM\\SYSTEM\\CurrentControlSet\\Services\\wuauserv", "name": "Start", "value": "4"}
    assert _ids("Registry", args) == ("security-weakening", "deny")


@requirement("S-RULE-40")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("Get-Package *antivirus* | Uninstall-Package -Force", ("security-weakening", "deny")),
        ("Uninstall-Package -Name 'Sophos Endpoint Agent'", ("security-weakening", "deny")),
        ("wmic product where \"name like '%Malwarebytes%'\" call uninstall", ("security-weakening", "deny")),
        ("winget uninstall --id Malwarebytes.Malwarebytes --silent", ("security-weakening", "deny")),
        ("winget remove CrowdStrike.Falcon", ("security-weakening", "deny")),
        ("choco uninstall sysmon -y", ("security-weakening", "deny")),
        ("msiexec /x C:\\installers\\SentinelOne.msi /qn", ("security-weakening", "deny")),
        (
            "Get-CimInstance Win32_Product -Filter \"Name like '%Sophos%'\" | Invoke-CimMethod -MethodName Uninstall",
            ("security-weakening", "deny"),
        ),
        ("Get-AppxPackage *Microsoft.SecHealthUI* | Remove-AppxPackage", ("security-weakening", "deny")),
        ("winget uninstall --id Mozilla.Firefox", None),
        ("Get-Package *7-zip* | Uninstall-Package", None),
        ("winget install Malwarebytes.Malwarebytes", None),
        ("winget list defender", None),
        ("msiexec /x {11111111-1111-1111-1111-111111111111} /qn", None),  # a product code names nothing
    ],
)
def test_uninstalling_security_software_is_a_security_weakening(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-40: the uninstall's own text, or the listing piped into it, names a security product."""
    assert _ids(*_ps(command)) == expected


@requirement("S-RULE-41")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("'rd /s /q C:\\Users' | cmd", ("protected-place-delete", "deny")),
        ("'rd /s /q C:\\Users' | cmd.exe /q", ("protected-place-delete", "deny")),
        ("'dir', 'rd /s /q C:\\Users\\me' | cmd /d", ("protected-place-delete", "deny")),
        ("'Remove-Item -Recurse -Force C:\\Users' | powershell -NoProfile", ("protected-place-delete", "deny")),
        ("'Remove-Item -Recurse -Force C:\\data' | pwsh -", ("recursive-delete", "deny")),
        ("Get-Content C:\\t\\cmds.txt | cmd", ("dynamic-command", "ask")),
        ('cmd /c "echo rd /s /q C:\\Users | cmd"', ("dynamic-command", "ask")),
        ('cmd /c "type C:\\t\\cmds.txt | cmd /q"', ("dynamic-command", "ask")),
        ("'dir' | cmd", None),
        ("'echo hi' | cmd /c more", None),  # a shell with a command of its own
        ("'Get-Date' | powershell -Command Get-Date", None),
        ('cmd /c "type C:\\t\\x.txt | findstr foo"', None),
        ("cmd", None),  # no pipe: an interactive shell
    ],
)
def test_text_piped_into_a_shell_is_that_shells_commands(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-41: constant piped text is judged as the shell's commands; anything else piped in is dynamic."""
    assert _ids(*_ps(command)) == expected
