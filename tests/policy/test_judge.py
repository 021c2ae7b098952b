"""The effect-rule table: each rule's hits and misses, first deny wins, remedies never point at harm (issue 18)."""

from __future__ import annotations

import re

import pytest

from policy.rules.judge import EFFECT_RULES, PLACE_RULE_IDS, EffectRule, Target, judge, judge_all, resolve_target
from policy.rules.place_table import KEY_PLACES
from policy.rules.shell.ops import Effect, EffectKind
from tests._requirements import requirement

K = EffectKind
GATEWAY = (
    "C:\\Users\\alice\\AppData\\Local\\winmcp-gateway",
    "C:\\Users\\alice\\AppData\\Roaming\\winmcp-gateway\\config.toml",
)
CHROME = "C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Login Data"
WDIGEST = "HKLM:\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\WDigest"
RUN = "HKCU:\\Software\\Microsoft\\Windows\\CurrentVersion\\Run"
UAC = "HKLM:\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System"
CONTROL = "HKLM\\SYSTEM\\CurrentControlSet\\Control"
FIREWALL_POLICY = "HKLM\\SYSTEM\\CurrentControlSet\\Services\\SharedAccess\\Parameters\\FirewallPolicy\\StandardProfile"
SHELL_IDS = "HKCU:\\Software\\Microsoft\\PowerShell\\1\\ShellIds\\Microsoft.PowerShell"
PS_POLICY = "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\PowerShell"
EXPLORER = "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Explorer"


def fx(kind: EffectKind, target: str | None = None, **kw: object) -> Effect:
    return Effect(kind, target, **kw)  # type: ignore[arg-type]


# (effect, rule id, action)
HITS: list[tuple[Effect, str, str]] = [
    # self-protection: the gateway's files (any spelling), its settings, PowerShell profiles, links to them
    (fx(K.DELETE, "$env:LOCALAPPDATA\\winmcp-gateway\\STOP"), "self-protection", "deny"),
    (fx(K.WRITE, "%APPDATA%\\winmcp-gateway\\config.toml"), "self-protection", "deny"),
    (fx(K.WRITE, "\\\\localhost\\c$\\Users\\alice\\AppData\\Local\\WINMCP~1\\STOP"), "self-protection", "deny"),
    (fx(K.MOVE, "C:\\Users\\alice\\AppData\\Local"), "self-protection", "deny"),  # a parent takes it along
    (fx(K.DELETE_RECURSIVE, "C:\\Users\\alice\\AppData\\Local\\winmcp-gateway."), "self-protection", "deny"),
    (fx(K.EXECUTE, "C:\\Users\\alice\\AppData\\Local\\winmcp-gateway\\x.ps1"), "self-protection", "deny"),
    (fx(K.WRITE, "C:\\j", extra=(("link_target", "C:\\Users\\alice\\AppData\\Local"),)), "self-protection", "deny"),
    (
        fx(K.REGISTRY_SET, "HKCU\\Environment", value_name="WINMCP_GATEWAY_ENFORCE", data="false"),
        "self-protection",
        "deny",
    ),  # fmt: skip
    (
        fx(
            K.REGISTRY_SET,
            "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment",
            value_name="winmcp_gateway_config",
        ),
        "self-protection",
        "deny",
    ),  # fmt: skip
    (fx(K.REGISTRY_DELETE, "HKCU\\Environment", value_name="WINMCP_*"), "self-protection", "deny"),
    (fx(K.REGISTRY_DELETE, "HKCU\\Environment"), "self-protection", "deny"),  # the whole key
    (fx(K.WRITE, "$PROFILE"), "self-protection", "deny"),
    (fx(K.WRITE, "~\\Documents\\PowerShell\\Microsoft.PowerShell_profile.ps1"), "self-protection", "deny"),
    (fx(K.DELETE, "$PSHOME\\profile.ps1"), "self-protection", "deny"),
    # credentials
    (fx(K.CREDENTIAL_ACCESS, None, detail="reg save HKLM\\SAM"), "credential-access", "deny"),
    (fx(K.CREDENTIAL_ACCESS, "lsass", detail="comsvcs.dll MiniDump"), "credential-access", "deny"),
    (fx(K.READ, CHROME), "credential-access", "deny"),
    (
        fx(K.READ, "~\\AppData\\Roaming\\Mozilla\\Firefox\\Profiles\\x.default\\logins.json"),
        "credential-access",
        "deny",
    ),  # fmt: skip
    (fx(K.READ, "C:\\Windows\\System32\\config\\SAM"), "credential-access", "deny"),
    (
        fx(K.READ, "\\\\?\\GLOBALROOT\\Device\\HarddiskVolumeShadowCopy1\\Windows\\System32\\config\\SAM"),
        "credential-access",
        "deny",
    ),  # fmt: skip
    (fx(K.MOVE, "C:\\Users\\bob\\AppData\\Roaming\\Microsoft\\Protect"), "credential-access", "deny"),
    (fx(K.MOVE, "C:\\Users\\bob\\AppData\\Local\\Google"), "credential-access", "deny"),  # holds Login Data
    (
        fx(K.READ, "C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data", extra=(("recursive", "true"),)),
        "credential-access",
        "deny",
    ),  # fmt: skip
    (fx(K.READ, "HKLM\\SAM\\SAM\\Domains\\Account"), "credential-access", "deny"),
    (
        fx(K.REGISTRY_SET, "HKLM\\SAM\\SAM\\Domains\\Account\\Users\\000001F5", value_name="F"),
        "credential-access",
        "deny",
    ),  # fmt: skip
    # security settings
    (fx(K.SECURITY_WEAKENING, None, detail="monitoring"), "security-weakening", "deny"),
    (fx(K.SECURITY_WEAKENING, None, detail="defender"), "disable-defender", "deny"),
    (fx(K.SECURITY_WEAKENING, None, detail="firewall"), "disable-firewall", "deny"),
    (fx(K.SECURITY_WEAKENING, None, detail="uac"), "disable-uac", "deny"),
    (fx(K.SECURITY_WEAKENING, None, detail="execution-policy"), "weaken-execution-policy", "deny"),
    (fx(K.SECURITY_WEAKENING, None, detail="amsi", extra=(("rule", "disable-defender"),)), "disable-defender", "deny"),
    (fx(K.REGISTRY_SET, WDIGEST, value_name="UseLogonCredential", data="1"), "security-weakening", "deny"),
    (
        fx(K.REGISTRY_SET, "HKLM\\SYSTEM\\CurrentControlSet\\Control\\Lsa", value_name="RunAsPPL", data="0"),
        "security-weakening",
        "deny",
    ),  # fmt: skip
    (
        fx(K.REGISTRY_SET, "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows Defender", value_name="DisableAntiSpyware"),
        "disable-defender",
        "deny",
    ),  # fmt: skip
    (
        fx(K.REGISTRY_SET, "HKLM\\SYSTEM\\ControlSet001\\Services\\WinDefend", value_name="Start", data="4"),
        "disable-defender",
        "deny",
    ),  # fmt: skip
    (
        fx(K.REGISTRY_DELETE, "HKLM\\SOFTWARE\\Microsoft\\Windows Defender\\Exclusions\\Paths", value_name="C:\\x"),
        "disable-defender",
        "deny",
    ),  # fmt: skip
    (
        fx(
            K.REGISTRY_SET,
            "HKLM\\SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Policies\\System",
            value_name="EnableLUA",
            data="0",
        ),
        "disable-uac",
        "deny",
    ),  # fmt: skip
    # a setting with its own built-in id keeps it, whichever tool wrote the key
    (fx(K.REGISTRY_SET, UAC, value_name="ConsentPromptBehaviorAdmin", data="0"), "disable-uac", "deny"),
    (fx(K.REGISTRY_SET, UAC, value_name="LocalAccountTokenFilterPolicy", data="1"), "disable-uac", "deny"),
    (fx(K.REGISTRY_SET, FIREWALL_POLICY, value_name="EnableFirewall", data="0"), "disable-firewall", "deny"),
    (
        fx(K.REGISTRY_SET, "HKLM\\SYSTEM\\CurrentControlSet\\Services\\mpssvc", value_name="Start"),
        "disable-firewall",
        "deny",
    ),
    (fx(K.REGISTRY_SET, SHELL_IDS, value_name="ExecutionPolicy", data="Bypass"), "weaken-execution-policy", "deny"),
    (
        fx(K.REGISTRY_SET, PS_POLICY, value_name="ExecutionPolicy", data="Unrestricted"),
        "weaken-execution-policy",
        "deny",
    ),
    (
        fx(K.REGISTRY_SET, PS_POLICY + "\\ScriptBlockLogging", value_name="EnableScriptBlockLogging"),
        "security-weakening",
        "deny",
    ),
    (
        fx(K.REGISTRY_SET, "HKLM\\SYSTEM\\CurrentControlSet\\Services\\wscsvc", value_name="Start"),
        "security-weakening",
        "deny",
    ),
    (fx(K.REGISTRY_SET, EXPLORER, value_name="SmartScreenEnabled", data="Off"), "security-weakening", "deny"),
    (
        fx(K.REGISTRY_SET, "HKLM\\SOFTWARE\\Policies\\Microsoft\\Windows\\System", value_name="EnableSmartScreen"),
        "security-weakening",
        "deny",
    ),  # fmt: skip
    (
        fx(K.REGISTRY_SET, CONTROL + "\\DeviceGuard", value_name="EnableVirtualizationBasedSecurity", data="0"),
        "security-weakening",
        "deny",
    ),  # fmt: skip
    (
        fx(K.REGISTRY_SET, "HKLM\\SYSTEM\\CurrentControlSet\\Services\\LanmanServer\\Parameters", value_name="SMB1"),
        "security-weakening",
        "deny",
    ),  # fmt: skip
    (
        fx(K.REGISTRY_SET, "HKCU\\Software\\Microsoft\\Windows Script\\Settings", value_name="AmsiEnable"),
        "security-weakening",
        "deny",
    ),
    (
        fx(K.SECURITY_WEAKENING, "x", detail="firewall-rule"),
        "security-weakening",
        "deny",
    ),  # an allow rule is no off switch
    (fx(K.REGISTRY_SET, CONTROL + "\\Lsa", value_name="Notification Packages"), "persistence-hijack", "deny"),
    (fx(K.REGISTRY_SET, CONTROL + "\\Lsa", value_name="Security Packages"), "persistence-hijack", "deny"),
    # hijack points
    (fx(K.REGISTRY_SET, "HKCU\\Software\\Classes\\ms-settings\\shell\\open\\command"), "persistence-hijack", "deny"),
    (
        fx(
            K.REGISTRY_SET,
            "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Image File Execution Options\\sethc.exe",
            value_name="Debugger",
        ),
        "persistence-hijack",
        "deny",
    ),  # fmt: skip
    (
        fx(K.REGISTRY_SET, "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Winlogon", value_name="Userinit"),
        "persistence-hijack",
        "deny",
    ),  # fmt: skip
    (
        fx(K.REGISTRY_SET, "HKCU\\Software\\Microsoft\\Command Processor", value_name="AutoRun"),
        "persistence-hijack",
        "deny",
    ),  # fmt: skip
    (fx(K.REGISTRY_SET, "HKCU\\Environment", value_name="UserInitMprLogonScript"), "persistence-hijack", "deny"),
    (
        fx(K.PERSISTENCE, None, detail="WMI subscription", extra=(("rule", "persistence-hijack"),)),
        "persistence-hijack",
        "deny",
    ),  # fmt: skip
    # accounts, logs
    (fx(K.ACCOUNT_CHANGE, "eve", detail="net user /add"), "account-change", "deny"),
    (fx(K.LOG_CLEAR, "Security", detail="wevtutil cl"), "log-clear", "deny"),
    (fx(K.DELETE, "C:\\Windows\\System32\\winevt\\Logs\\Security.evtx"), "protected-place-delete", "deny"),
    (fx(K.WRITE, "%SystemRoot%\\System32\\winevt\\Logs\\System.evtx"), "log-clear", "deny"),
    # processes
    (fx(K.KILL, "lsass"), "kill-critical-process", "deny"),
    (fx(K.KILL, "LSASS.EXE"), "kill-critical-process", "deny"),
    (fx(K.KILL_FORCED, "C:\\Windows\\System32\\csrss.exe"), "kill-critical-process", "deny"),
    (fx(K.KILL, "MsMpEng"), "kill-critical-process", "deny"),
    (fx(K.KILL, "winmcp-gateway"), "kill-critical-process", "deny"),
    (fx(K.KILL, "4"), "kill-critical-process", "deny"),
    (fx(K.KILL_FORCED, "ls*"), "kill-critical-process", "deny"),
    (fx(K.KILL_ALL, None, detail="Get-Process | Stop-Process"), "kill-all", "deny"),
    (fx(K.KILL, "*"), "kill-all", "deny"),
    (fx(K.KILL_FORCED, "*.exe"), "kill-all", "deny"),
    (fx(K.KILL, "explorer"), "kill-desktop-shell", "ask"),
    (fx(K.KILL_FORCED, "explorer.exe"), "kill-desktop-shell", "ask"),
    (fx(K.KILL_FORCED, "notepad"), "force-kill", "ask"),
    # disks, downloaded code, power
    (fx(K.DISK_DESTROY, "C:", detail="format"), "format-disk", "deny"),
    (fx(K.DISK_DESTROY, None, detail="backups"), "delete-backups", "deny"),
    (fx(K.DOWNLOAD_EXECUTE, "https://x.example/a.ps1", detail="iwr | iex"), "download-execute", "deny"),
    (fx(K.POWER, None, detail="shutdown /s"), "shutdown-restart", "deny"),
    # protected places
    (fx(K.DELETE, "C:\\Windows\\System32\\hal.dll"), "protected-place-delete", "deny"),
    (fx(K.DELETE, "C:/windows/system32/HAL.DLL."), "protected-place-delete", "deny"),
    (fx(K.MOVE, "C:\\Windows\\System32"), "protected-place-delete", "deny"),
    (fx(K.MOVE, "C:\\Program Files"), "protected-place-delete", "deny"),
    (fx(K.MOVE, "C:\\PROGRA~1\\App"), "protected-place-delete", "deny"),
    (fx(K.DELETE, "C:\\Users\\bob"), "self-protection", "deny"),  # any profile may hold the state dir
    (fx(K.DELETE_RECURSIVE, "C:\\Users"), "self-protection", "deny"),
    (fx(K.MOVE, "~\\Documents"), "protected-place-delete", "deny"),
    (fx(K.DELETE, "C:\\bootmgr"), "protected-place-delete", "deny"),
    (fx(K.DELETE, "C:Windows\\System32\\hal.dll"), "protected-place-delete", "deny"),  # drive-relative
    (fx(K.DELETE, "..\\..\\..\\Windows\\System32\\hal.dll"), "protected-place-delete", "deny"),  # from the Desktop
    (fx(K.DELETE, "C:\\Windows\\System32\\drivers\\etc\\hosts"), "protected-place-delete", "deny"),
    (fx(K.DELETE, "C:\\"), "self-protection", "deny"),
    (fx(K.WRITE, "C:\\Windows\\System32\\drivers\\etc\\hosts"), "protected-place-write", "deny"),
    (fx(K.WRITE, "C:\\Windows\\System32\\sethc.exe"), "persistence-hijack", "deny"),  # the accessibility swap
    (fx(K.WRITE, "C:\\Windows\\SysWOW64\\Utilman.exe"), "persistence-hijack", "deny"),
    (fx(K.DELETE, "C:\\Windows\\System32\\sethc.exe"), "protected-place-delete", "deny"),
    (fx(K.WRITE, "C:\\Windows\\System32\\notepad.exe"), "protected-place-write", "deny"),
    (fx(K.WRITE, "C:\\Program Files\\App\\app.exe"), "protected-place-write", "deny"),
    (fx(K.WRITE, "C:\\j", extra=(("link_target", "C:\\Windows\\System32"),)), "protected-place-write", "deny"),
    (fx(K.WRITE, "C:\\j", extra=(("link_target", CHROME),)), "protected-place-write", "deny"),
    # registry deletes
    (fx(K.REGISTRY_DELETE, "HKLM\\SOFTWARE\\MyApp"), "registry-delete-machine-hive", "deny"),
    (fx(K.REGISTRY_DELETE, "HKCR\\.txt"), "registry-delete-machine-hive", "deny"),
    (fx(K.REGISTRY_DELETE, "HKU\\S-1-5-21-1\\Software\\MyApp"), "registry-delete-machine-hive", "deny"),
    (fx(K.DELETE_RECURSIVE, "HKLM:\\SOFTWARE\\MyApp"), "registry-delete-machine-hive", "deny"),
    (fx(K.REGISTRY_DELETE, "HKCU\\Software"), "registry-delete-top-key", "deny"),
    (fx(K.REGISTRY_DELETE, "HKCU:\\"), "registry-delete-top-key", "deny"),
    (fx(K.REGISTRY_DELETE, "HKCU\\Software\\Microsoft\\Windows"), "registry-delete-top-key", "deny"),
    (fx(K.REGISTRY_DELETE, "HKCU\\Software\\*"), "registry-delete-top-key", "deny"),
    (fx(K.REGISTRY_DELETE, "NotAHive\\Software"), "registry-delete-top-key", "deny"),
    (fx(K.DELETE_RECURSIVE, "C:\\Users\\bob\\Documents\\old"), "recursive-delete", "deny"),
    (fx(K.DELETE_RECURSIVE, None, detail="Remove-Item -Recurse $x"), "recursive-delete", "deny"),
    # asks
    (fx(K.WRITE, "shell:startup\\evil.lnk"), "persistence-autostart", "ask"),
    (
        fx(K.WRITE, "C:\\ProgramData\\Microsoft\\Windows\\Start Menu\\Programs\\Startup\\a.bat"),
        "persistence-autostart",
        "ask",
    ),  # fmt: skip
    (fx(K.REGISTRY_SET, RUN, value_name="updater", data="C:\\x.exe"), "persistence-autostart", "ask"),
    (
        fx(K.REGISTRY_SET, "HKLM\\SYSTEM\\CurrentControlSet\\Services\\evil", value_name="ImagePath"),
        "persistence-autostart",
        "ask",
    ),  # fmt: skip
    (fx(K.PERSISTENCE, "evil", detail="schtasks /create"), "persistence-autostart", "ask"),
    (fx(K.REGISTRY_SET, "HKCU\\Environment", value_name="Path", data="C:\\x"), "environment-change", "ask"),
    (fx(K.REGISTRY_DELETE, "HKCU\\Environment", value_name="TEMP"), "environment-change", "ask"),
    # S-RULE-30..32: what leaves the machine, code from another machine, the network's settings
    (fx(K.UPLOAD, "C:\\Users\\bob\\Documents\\plan.docx", detail="curl upload"), "upload-file", "ask"),
    (fx(K.DELETE, "C:\\Users\\bob\\Documents\\*"), "wildcard-delete", "ask"),
    (fx(K.UPLOAD, "C:\\Users\\bob\\.ssh\\id_rsa", detail="scp"), "credential-access", "deny"),
    (fx(K.UPLOAD, "$env:LOCALAPPDATA\\winmcp-gateway\\audit.jsonl"), "upload-file", "ask"),  # sent, not changed
    (fx(K.EXECUTE, "\\\\files.example\\drop\\a.exe"), "remote-code", "ask"),
    (fx(K.EXECUTE, "\\\\?\\UNC\\files.example\\drop\\a.exe"), "remote-code", "ask"),
    (fx(K.EXECUTE, "//files.example@SSL/DavWWWRoot/a.exe"), "remote-code", "ask"),
    # a DLL planted beside a per-user install (VS Code loads it at its next start)
    (fx(K.WRITE, "$env:LOCALAPPDATA\\Programs\\Microsoft VS Code\\version.dll"), "protected-place-write", "deny"),
    # a script made from content nobody read; an archive unpacked over protected places (S-RULE-114, S-RULE-115)
    (fx(K.WRITE, "C:\\t\\x.ps1", extra=(("unread_script", "true"),)), "unread-script", "ask"),
    (fx(K.WRITE, "C:\\Users\\bob\\Documents", extra=(("recursive", "true"),)), "unpack-over-protected", "ask"),
    # items nobody can name copied into a folder that holds a protected place (S-RULE-147)
    (
        fx(K.WRITE, "C:\\Users\\bob\\Documents\\*", extra=(("recursive", "true"), ("landed", "true"))),
        "copy-over-protected",
        "ask",
    ),
    (fx(K.NETWORK_CHANGE, None, detail="route delete"), "network-change", "ask"),
    # an administration console opened (S-RULE-154)
    (fx(K.EXECUTE, "secpol.msc", extra=(("console", "the MMC console secpol.msc"),)), "admin-console", "ask"),
    (fx(K.EXECUTE, "AnyDesk.exe", extra=(("remote-control", "anydesk"),)), "remote-control", "ask"),
    (fx(K.DEVICE_CHANGE, None, detail="Disable-PnpDevice"), "device-change", "ask"),
    (fx(K.EXTERNAL_DELETE, None, detail="terraform destroy"), "external-delete", "ask"),
    (fx(K.DISK_LOCK, "C:", detail="Enable-BitLocker"), "disk-encryption", "ask"),
    (fx(K.WRITE, r"C:\Users\me", detail="icacls /deny", extra=(("permissions", "true"),)), "permission-change", "ask"),
    (fx(K.WRITE, r"C:\t\x.exe", detail="Unblock-File", extra=(("zone_mark", "removed"),)), "mark-of-the-web", "ask"),
    (fx(K.EXECUTE, "claude", extra=(("agent", "Claude Code"),)), "agent-delegation", "ask"),
    (
        fx(K.WRITE, r"C:\p\.vscode\settings.json", extra=(("agent-approvals", "chat.tools.autoApprove"),)),
        "agent-approvals-off",
        "deny",
    ),
    (fx(K.EXECUTE, "codex", extra=(("agent", "Codex"), ("unattended", "--yolo"))), "agent-unattended", "deny"),
    (fx(K.EXECUTE, "windows-mcp", extra=(("ungated-upstream", "uvx"),)), "self-protection", "deny"),
    (
        fx(
            K.REGISTRY_SET,
            "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings",
            value_name="ProxyServer",
        ),
        "network-change",
        "ask",
    ),
]

MISSES: list[Effect] = [
    fx(K.READ, "$env:LOCALAPPDATA\\winmcp-gateway\\audit.jsonl"),  # reading the gateway's files is no change
    fx(K.READ, "$PROFILE"),
    fx(K.EXECUTE, "\\\\localhost\\c$\\Windows\\System32\\notepad.exe"),  # this machine's own share
    fx(K.EXECUTE, "\\\\wsl.localhost\\Ubuntu\\home\\me\\run.sh"),  # WSL's files are on this machine
    fx(K.EXECUTE, "C:\\Users\\bob\\tools\\a.exe"),
    fx(K.REGISTRY_SET, "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Internet Settings", value_name="ZoomLevel"),
    fx(K.READ, "C:\\Windows\\System32\\drivers\\etc\\hosts"),  # read-only on protected places is fine
    fx(K.READ, "C:\\Windows\\System32\\hal.dll"),
    fx(K.READ, "C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data"),  # a listing, not recursive
    fx(K.READ, "HKLM\\SYSTEM\\CurrentControlSet\\Control\\SecurityProviders\\WDigest"),
    fx(K.DELETE, "C:\\Users\\bob\\Documents\\report.docx"),  # single files in user data
    fx(K.MOVE, "C:\\Users\\bob\\Desktop\\a.txt"),
    fx(K.WRITE, "notes.txt"),
    fx(K.WRITE, "C:\\Users\\bob\\Documents\\notes.txt"),
    fx(K.WRITE, "C:\\Windows\\Temp\\setup.log"),
    fx(K.DELETE, "C:\\Windows\\Temp\\setup.log"),
    fx(K.WRITE, "C:\\Users\\alice\\AppData\\Local\\winmcp-gateway-other\\a.txt"),
    fx(K.DELETE, "C:\\Users\\bob\\AppData\\Local\\Google\\Chrome\\User Data\\Default\\Cache\\f_0001"),
    fx(K.WRITE, "C:\\j", extra=(("link_target", "C:\\Users\\bob\\Documents\\projects"),)),
    fx(K.EXECUTE, "C:\\Program Files\\App\\app.exe"),
    fx(K.READ, "$env:LOCALAPPDATA\\Programs\\Microsoft VS Code\\resources\\app\\package.json"),
    fx(K.EXECUTE, "$env:LOCALAPPDATA\\Programs\\Python\\Python312\\python.exe"),
    fx(K.REGISTRY_SET, "HKCU\\Software\\MyApp", value_name="x"),
    fx(K.REGISTRY_DELETE, "HKCU\\Software\\MyApp\\Settings"),
    fx(K.REGISTRY_DELETE, "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run", value_name="updater"),
    fx(K.REGISTRY_SET, "HKLM\\SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion\\Windows", value_name="Device"),
    fx(K.KILL, "notepad"),
    fx(K.KILL, "chrome.exe"),
    fx(K.KILL, "672"),
    fx(K.KILL, None),
    fx(K.DELETE, None),
    fx(K.READ, "$env:NO_SUCH\\x"),
    fx(
        K.REGISTRY_SET,
        "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Explorer\\Advanced",
        value_name="HideFileExt",
    ),
    fx(K.REGISTRY_SET, EXPLORER, value_name="ShowFrequent"),  # only SmartScreen's value of the key is protected
    fx(K.DELETE, "C:\\Users\\bob\\Documents\\old.tmp"),  # one file in Documents, not the folder
    fx(K.DELETE, "C:\\Users\\bob\\Documents\\drafts\\*.tmp"),  # a wildcard one folder further down
    fx(K.DELETE, "C:\\temp\\*"),  # a wildcard in an ordinary folder
    fx(K.READ, "C:\\Windows\\System32\\sethc.exe"),
]


def _ids(rule_hit: object) -> tuple[str, str] | None:
    return None if rule_hit is None else (rule_hit.rule_id, rule_hit.action)  # type: ignore[attr-defined]


@requirement("S-RULE-04", "S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize(("effect", "rule_id", "action"), HITS)
def test_each_dangerous_effect_hits_its_rule(effect: Effect, rule_id: str, action: str) -> None:
    """S-RULE-04/05: an effect on a protected place, process or setting is denied or asked by its rule."""
    assert _ids(judge(effect, gateway_paths=GATEWAY)) == (rule_id, action)


@requirement("S-RULE-04", "S-RULE-05", "S-RULE-19")
@pytest.mark.parametrize("effect", MISSES)
def test_ordinary_effects_hit_no_rule(effect: Effect) -> None:
    """S-RULE-04/05: reading, ordinary files and keys, applications and unknown targets are not refused here."""
    assert judge(effect, gateway_paths=GATEWAY) is None


@requirement("S-RULE-04", "S-RULE-19")
@pytest.mark.parametrize("target", ["C:\\Users\\bob", "C:\\Users", "C:\\", "C:\\Users\\bob\\AppData"])
def test_deleting_a_profile_or_the_drive_is_a_protected_place_delete(target: str) -> None:
    """S-RULE-04: without the gateway's paths in play, profile roots and the drive are protected places."""
    assert _ids(judge(fx(K.DELETE, target))) == ("protected-place-delete", "deny")


@requirement("S-RULE-10", "S-RULE-19")
def test_without_gateway_paths_the_gateways_files_are_ordinary() -> None:
    """S-RULE-10: the gateway's own state is the caller's to name; the same path is unprotected without it."""
    effect = fx(K.DELETE, "C:\\Users\\alice\\AppData\\Local\\winmcp-gateway\\STOP")
    assert _ids(judge(effect, gateway_paths=GATEWAY)) == ("self-protection", "deny")
    assert judge(effect) is None


@requirement("S-RULE-04", "S-RULE-19")
def test_every_row_of_the_table_is_exercised() -> None:
    """S-RULE-04: each rule id in the table has a hit in this file (so none is dead)."""
    table_ids = {r.id for r in EFFECT_RULES}
    hit_ids = {rid for _, rid, _ in HITS}
    assert table_ids <= hit_ids


ALLOWED_IDS = {
    "self-protection", "protected-place-delete", "recursive-delete", "protected-place-write", "persistence-autostart",
    "persistence-hijack", "credential-access", "security-weakening", "account-change", "log-clear",
    "kill-critical-process", "kill-all", "force-kill", "format-disk", "download-execute", "shutdown-restart",
    "registry-delete-machine-hive", "registry-delete-top-key", "environment-change", "kill-desktop-shell",
    "remote-code", "upload-file", "network-change", "wildcard-delete", "unread-script", "unpack-over-protected",
    "device-change", "copy-over-protected", "admin-console", "remote-control", "external-delete",
    "disk-encryption", "permission-change", "mark-of-the-web", "agent-unattended", "agent-delegation",
    "agent-approvals-off",
}  # fmt: skip
BUILTIN_SPECIFIC = {"disable-defender", "disable-firewall", "disable-uac", "weaken-execution-policy", "delete-backups"}


@requirement("S-RULE-04", "S-RULE-19")
def test_rule_ids_are_the_agreed_ones() -> None:
    """S-RULE-04: the table uses the agreed ids; hints name only existing built-in ids."""
    assert {r.id for r in EFFECT_RULES} == ALLOWED_IDS
    assert set().union(*(r.hints for r in EFFECT_RULES)) == BUILTIN_SPECIFIC
    assert all(r.verdict in ("deny", "ask") for r in EFFECT_RULES)


@requirement("S-RULE-04", "S-RULE-19")
def test_a_hint_never_weakens_a_verdict() -> None:
    """S-RULE-04: an analyser's hint naming an id the row does not list is ignored."""
    hit = judge(fx(K.SECURITY_WEAKENING, None, detail="x", extra=(("rule", "force-kill"),)))
    assert _ids(hit) == ("security-weakening", "deny")
    hit = judge(fx(K.PERSISTENCE, "t", detail="schtasks", extra=(("rule", "nonsense"),)))
    assert _ids(hit) == ("persistence-autostart", "ask")


@requirement("S-RULE-07", "S-RULE-19")
def test_first_deny_wins_over_an_earlier_ask() -> None:
    """S-RULE-07: one call's effects: any deny beats an ask, whatever their order."""
    ask = fx(K.KILL_FORCED, "notepad")
    deny = fx(K.DELETE, "C:\\Windows\\System32\\hal.dll")
    assert _ids(judge_all([ask, deny])) == ("protected-place-delete", "deny")
    assert _ids(judge_all([deny, ask])) == ("protected-place-delete", "deny")


@requirement("S-RULE-07", "S-RULE-19")
def test_among_denies_the_earliest_row_wins() -> None:
    """S-RULE-07: self-protection comes before every other row, whatever the order of the effects."""
    later = fx(K.DELETE_RECURSIVE, "C:\\data\\old")
    earlier = fx(K.DELETE, "$env:LOCALAPPDATA\\winmcp-gateway\\STOP")
    assert _ids(judge_all([later, earlier], gateway_paths=GATEWAY)) == ("self-protection", "deny")


@requirement("S-RULE-07", "S-RULE-19")
def test_among_asks_the_earliest_row_wins_and_nothing_gives_none() -> None:
    """S-RULE-07: two asks give the earlier row's; no hit at all gives None."""
    autostart = fx(K.PERSISTENCE, "t", detail="schtasks /create")
    force = fx(K.KILL_FORCED, "notepad")
    assert _ids(judge_all([force, autostart])) == ("persistence-autostart", "ask")
    assert judge_all([fx(K.READ, "C:\\x"), fx(K.KILL, "notepad")]) is None
    assert judge_all([]) is None


@requirement("S-RULE-07", "S-RULE-19")
def test_within_one_effect_a_deny_row_beats_an_ask_row() -> None:
    """S-RULE-07: a write into a Startup folder inside the gateway's state is self-protection, not an ask."""
    gw = ("C:\\Users\\alice\\AppData\\Roaming\\Microsoft\\Windows\\Start Menu\\Programs\\Startup",)
    hit = judge(fx(K.WRITE, "shell:startup\\a.lnk"), gateway_paths=gw)
    assert _ids(hit) == ("self-protection", "deny")


# ---------------------------------------------------------------------------------------
# Reasons and remedies

# Verbs a suggested command must never contain: each one changes or ends something.
DANGEROUS = re.compile(
    r"(?<![\w-])(?:(?:remove|delete|erase|kill|stop|format|set|new|add|clear|disable|enable|register|unregister"
    r"|install|uninstall|move|rename|copy|start|invoke|out|restart|suspend|lock|dismount|initialize|mount)-\w+"
    r"|remove|delete|del|erase|rd|rmdir|rm|kill|taskkill|tskill|format|move|mv|ren|rename|copy|cp|icacls|takeown"
    r"|attrib|cipher|diskpart|vssadmin|wevtutil|bcdedit|schtasks|sc|net|netsh|setx|mklink|iex|iwr|shutdown"
    r"|reg\s+(?:add|delete|import|save|export|copy|restore|load|unload)|>)(?![\w-])",
    re.IGNORECASE,
)
HARMFUL_ADVICE = re.compile(
    r"without (?:-?force|/f)|normal kill|one (?:by|at a) (?:one|time)|instead of -recurse|plain kill", re.IGNORECASE
)


def _commands(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


@requirement("S-RULE-04", "S-RULE-19")
@pytest.mark.parametrize("rule", EFFECT_RULES, ids=lambda r: f"{r.id}:{sorted(r.effects)[0].value}")
def test_remedies_suggest_only_reading_or_asking(rule: EffectRule) -> None:
    """S-RULE-04: every backticked command in a remedy is read-only, and no remedy points at a weaker harm."""
    assert rule.remedy.strip() and rule.remedy == rule.remedy.strip()
    for command in _commands(rule.remedy):
        assert not DANGEROUS.search(command), (rule.id, command)
    assert not HARMFUL_ADVICE.search(rule.remedy), rule.id
    assert rule.remedy.count("`") % 2 == 0


@requirement("S-RULE-04", "S-RULE-19")
def test_the_dangerous_verb_check_can_fail() -> None:
    """S-RULE-04: the remedy check recognises harmful commands (it is no tautology)."""
    for bad in (
        "Remove-Item x",
        "Stop-Process -Name a",
        "reg delete HKCU\\x",
        "Set-MpPreference -X 1",
        "taskkill /im a",
    ):
        assert DANGEROUS.search(bad), bad
    for good in ("Get-ChildItem", "Get-Process", "reg query HKLM", "Test-Path", "Get-ItemProperty", "Get-WinEvent"):
        assert not DANGEROUS.search(good), good
    assert HARMFUL_ADVICE.search("try a normal kill first")


@requirement("S-RULE-04", "S-RULE-19")
@pytest.mark.parametrize(("effect", "rule_id", "action"), HITS)
def test_a_hit_names_the_place_and_ends_with_the_remedy(effect: Effect, rule_id: str, action: str) -> None:
    """S-RULE-04: the reason is filled in (no template left), names the place, and ends "Instead, <remedy>"."""
    hit = judge(effect, gateway_paths=GATEWAY)
    assert hit is not None
    rule = next(r for r in EFFECT_RULES if r.id == rule_id or rule_id in r.hints)
    assert "{" not in hit.reason and "}" not in hit.reason.replace("{x}", "")
    assert " Instead, " in hit.reason
    remedy = hit.reason.split(" Instead, ", 1)[1]
    assert any(remedy == r.remedy for r in EFFECT_RULES if r.id == rule.id or rule_id in r.hints)
    assert "this target" not in hit.reason or rule.places is None


@requirement("S-RULE-04", "S-RULE-19")
def test_a_reason_names_the_place_label_and_the_canonical_target() -> None:
    """S-RULE-04: the model reads which protected place it was and the path as the rules saw it."""
    hit = judge(fx(K.DELETE, "\\\\localhost\\c$\\Windows\\System32\\hal.dll"))
    assert hit is not None
    assert "the Windows system folder (System32)" in hit.reason
    assert "c:\\windows\\system32\\hal.dll" in hit.reason
    held = judge(fx(K.MOVE, "C:\\Users\\bob\\AppData\\Local\\Google"))
    assert held is not None and "a folder that holds Google Chrome's" in held.reason


@requirement("S-RULE-04", "S-RULE-19")
def test_a_long_target_is_shortened_in_the_reason() -> None:
    """S-RULE-04: a reason stays one readable line however long the target is."""
    hit = judge(fx(K.DELETE_RECURSIVE, "C:\\data\\" + "x" * 5000))
    assert hit is not None and len(hit.reason) < 600


# ---------------------------------------------------------------------------------------
# Totality

ODD_TARGETS = ["", " ", "\x00", "C:\\" + "a\\" * 2000, "\\\\?\\", "\\\\", "file:", "shell:", "~~", "${", "$(", "%%",
               "HKLM:", "::", "\ud800", "C:\\x*[", "[", "~1", "a~1.b~2"]  # fmt: skip


@requirement("S-RULE-11", "S-RULE-19")
@pytest.mark.parametrize("kind", list(EffectKind))
@pytest.mark.parametrize("target", ODD_TARGETS)
def test_judge_is_total_on_odd_targets(kind: EffectKind, target: str) -> None:
    """S-RULE-11: any target string, any kind: a hit or None, never an exception."""
    judge(fx(kind, target, value_name=target, extra=(("link_target", target), ("rule", target))), gateway_paths=GATEWAY)


@requirement("S-RULE-11", "S-RULE-19")
def test_resolve_target_reports_what_it_found() -> None:
    """S-RULE-11: the resolved target carries the canonical form, the places and the places inside."""
    t = resolve_target(fx(K.MOVE, "C:\\Users\\alice\\AppData\\Local"), gateway_paths=GATEWAY)
    assert isinstance(t, Target)
    assert t.shown == "c:\\users\\alice\\appdata\\local"
    assert {p.id for p in t.places} == {"user-folder"}
    assert "gateway-state" in {p.id for p in t.inside}
    key = resolve_target(fx(K.REGISTRY_SET, RUN, value_name="x"))
    assert key.key == "hkcu\\software\\microsoft\\windows\\currentversion\\run"
    assert resolve_target(fx(K.KILL, "C:\\Windows\\lsass.EXE")).shown == "lsass"


@requirement("S-RULE-04", "S-RULE-19")
def test_the_items_of_a_folder_are_named_by_the_folder() -> None:
    """S-RULE-04: deleting `System32\\*` names System32 in the reason, not the deepest place the glob reaches."""
    hit = judge(fx(K.DELETE, "C:\\Windows\\System32\\*"))
    assert _ids(hit) == ("protected-place-delete", "deny")
    assert hit is not None and "(System32)" in hit.reason and "drivers" not in hit.reason


@requirement("S-RULE-04", "S-RULE-19")
def test_place_hints_name_existing_places_and_built_in_ids() -> None:
    """S-RULE-04: every place → rule id hint names a key place of the table and a specific built-in id."""
    assert set(PLACE_RULE_IDS.values()) <= BUILTIN_SPECIFIC
    assert set(PLACE_RULE_IDS) <= {entry.place.id for entry in KEY_PLACES}


# -- a remedy, followed on the very place it was given for, is not refused (issue 18 item 5) -------

# The read-only commands remedies name that take a path; each is run on the refused place itself.
_PATH_COMMANDS = ("Test-Path", "Get-ChildItem", "Get-Content", "Get-Item", "Get-Acl")


def _a_path_of(pattern: str) -> str:
    """One concrete file path a place pattern names (`~\\` a user's profile, `*` one name, `{a,b}` the first)."""
    path = re.sub(r"\{([^,}]*)[^}]*\}", r"\1", pattern).replace("~\\", "c:\\users\\me\\")
    return path.replace("*", "x")


def _followed_remedies() -> list[tuple[str, str, str]]:
    from policy.rules.place_table import FILE_PLACES

    cases = []
    for rule in EFFECT_RULES:
        if rule.places is None:
            continue
        commands = [c for c in _commands(rule.remedy) if c.split()[0] in _PATH_COMMANDS]
        for entry in FILE_PLACES:
            if entry.place.category in rule.places and entry.scope != "open":
                for command in commands:
                    cases.append((rule.id, entry.place.id, f"{command} '{_a_path_of(entry.patterns[0])}'"))
    return cases


@requirement("S-RULE-04", "S-RULE-23")
@pytest.mark.parametrize(("rule_id", "place_id", "command"), _followed_remedies())
def test_a_remedy_followed_on_the_refused_place_is_allowed(rule_id: str, place_id: str, command: str) -> None:
    """S-RULE-04: `Test-Path` on the credential store it was refused for passes (it once was refused itself)."""
    from policy.rules.match import load_rules

    assert load_rules().match("PowerShell", {"command": command}) is None, (rule_id, place_id)


@requirement("S-RULE-04", "S-RULE-23")
def test_the_followed_remedies_cover_the_credential_stores() -> None:
    """S-RULE-04: the table above is not empty: the credential-store refusal's `Test-Path` is among its cases."""
    cases = _followed_remedies()
    assert any(r == "credential-access" and c.startswith("Test-Path '") for r, _, c in cases)
    assert len({p for _, p, _ in cases}) >= 20


@requirement("S-RULE-35")
@pytest.mark.parametrize(
    "effect",
    [
        fx(K.DELETE, "C:\\Users\\bob\\Documents\\*"),
        fx(K.DELETE, "C:\\Users\\bob\\Documents\\*.tmp"),
        fx(K.DELETE, "%USERPROFILE%\\Desktop\\*.*"),
        fx(K.MOVE, "C:\\Users\\bob\\Pictures\\IMG_????.jpg"),
        fx(K.DELETE, "C:\\Users\\bob\\OneDrive\\Documents\\*"),
    ],
)
def test_a_wildcard_that_empties_a_users_own_folder_asks(effect: Effect) -> None:
    """S-RULE-35: every matching item of a user's own folder at once is a person's call."""
    assert _ids(judge(effect)) == ("wildcard-delete", "ask")


@requirement("S-RULE-35")
def test_a_wildcard_in_a_system_folder_is_still_refused_as_the_place_it_is() -> None:
    """S-RULE-35: the ask never softens a deny: `System32\\*` is a protected place's contents, and a
    wildcard in the profile folder could name Documents itself."""
    assert _ids(judge(fx(K.DELETE, "C:\\Windows\\System32\\*"))) == ("protected-place-delete", "deny")
    assert _ids(judge(fx(K.DELETE, "C:\\Users\\bob\\*"))) == ("protected-place-delete", "deny")
