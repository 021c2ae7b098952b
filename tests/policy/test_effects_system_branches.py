"""Each branch of the system effects (`policy/rules/effects_system.py`) as whole effects; found by mutation testing.

Rows are commands as the model would send them to the PowerShell tool, with every effect the gateway reads
from them: kind, target as written, the phrase a reason quotes and the extra facts (the scheduled command,
the group members, the hijack hint). The corpus tests check only the verdict, which another rule often
reaches anyway; these rows pin what each program, cmdlet and .NET call does on Windows: `net user x /add`
changes an account, `wevtutil sl /ms:` below 1 MiB empties a log slowly, `procdump -ma lsass` reads the
logon secrets, `shutdown /a` only cancels, `wmic process delete` without a filter ends every process.
Negative rows (a read-only verb, a switch absent, a size at the limit) matter as much as positive ones.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import effect
from policy.rules.effects_system import adsi_effects, dotnet_system, wmi_kill
from policy.rules.shell.ops import Effect, EffectKind, Operation
from tests._requirements import requirement
from tests.policy.verdicts import ps as _verdict
from tests.policy.verdicts import ps_effects as _effects

K = EffectKind
_e = effect
LATER = "runs_later"  # the command line an entry runs later (S-RULE-116)


# ---------------------------------------------------------------------------------------
# Programs: net, schtasks, at, backups, wevtutil, shutdown, credentials, dumps, debuggers


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("net user bob P@ss /add", (_e(K.ACCOUNT_CHANGE, "bob", "net user /add"),), id="net-user-add"),
        pytest.param(
            "net user bob /active:no", (_e(K.ACCOUNT_CHANGE, "bob", "net user /active"),), id="net-user-active"
        ),
        pytest.param(
            "net user bob N3wP@ss", (_e(K.ACCOUNT_CHANGE, "bob", "net user (password)"),), id="net-user-password"
        ),
        pytest.param("net user bob", (), id="net-user-show"),
        pytest.param("net user bob /domain", (), id="net-user-domain-show"),
        pytest.param("net user", (), id="net-user-list"),
        pytest.param("net1 user bob /add", (_e(K.ACCOUNT_CHANGE, "bob", "net user /add"),), id="net1-user-add"),
        pytest.param(
            "net localgroup Administrators bob /add",
            (_e(K.ACCOUNT_CHANGE, "Administrators", "net localgroup /add", extra=(("member", "bob"),)),),
            id="net-localgroup-add",
        ),
        pytest.param(
            "net localgroup Administrators bob /delete",
            (_e(K.ACCOUNT_CHANGE, "Administrators", "net localgroup /delete", extra=(("member", "bob"),)),),
            id="net-localgroup-delete",
        ),
        pytest.param("net localgroup Administrators", (), id="net-localgroup-show"),
        pytest.param("net localgroup Administrators bob", (), id="net-localgroup-no-flag"),
        pytest.param(
            'net group "Domain Admins" eve /add /domain',
            (_e(K.ACCOUNT_CHANGE, "Domain Admins", "net group /add", extra=(("member", "eve"),)),),
            id="net-group-domain-add",
        ),
        pytest.param(
            "net accounts /maxpwage:unlimited",
            (_e(K.ACCOUNT_CHANGE, None, "net accounts /maxpwage"),),
            id="net-accounts-change",
        ),
        pytest.param("net accounts", (), id="net-accounts-show"),
        pytest.param(
            "net share data=C:\\Data /grant:everyone,full",
            (_e(K.NETWORK_CHANGE, "C:\\Data", "net share"),),
            id="net-share-grant",
        ),
        pytest.param("net share data /delete", (), id="net-share-delete"),
        pytest.param("net share data=C:\\Data /delete", (), id="net-share-delete-with-path"),
        pytest.param("net share", (), id="net-share-list"),
        pytest.param(
            "net stop WinDefend",
            (_e(K.SECURITY_WEAKENING, "WinDefend", "defender", extra=(("command", "net stop"),)),),
            id="net-stop-defender",
        ),
        pytest.param(
            "net pause WinDefend",
            (_e(K.SECURITY_WEAKENING, "WinDefend", "defender", extra=(("command", "net pause"),)),),
            id="net-pause-defender",
        ),
        pytest.param("net stop Spooler", (), id="net-stop-spooler"),
        pytest.param("net start WinDefend", (), id="net-start-defender"),
        pytest.param(
            "schtasks /create /tn Upd /tr C:\\x.exe /sc onlogon",
            (_e(K.PERSISTENCE, "Upd", "schtasks /create", extra=(("command", "C:\\x.exe"), (LATER, "C:\\x.exe"))),),
            id="schtasks-create",
        ),
        pytest.param(
            "schtasks /change /tn Upd /tr C:\\y.exe",
            (_e(K.PERSISTENCE, "Upd", "schtasks /change", extra=(("command", "C:\\y.exe"), (LATER, "C:\\y.exe"))),),
            id="schtasks-change",
        ),
        pytest.param(
            "schtasks /create /tn Upd /sc daily",
            (_e(K.PERSISTENCE, "Upd", "schtasks /create"),),
            id="schtasks-create-no-tr",
        ),
        pytest.param("schtasks /run /tn Upd", (_e(K.EXECUTE, "Upd", "schtasks /run"),), id="schtasks-run"),
        pytest.param("schtasks /query /tn Upd", (), id="schtasks-query"),
        pytest.param(
            "at 23:00 C:\\x.exe",
            (_e(K.PERSISTENCE, None, "at (scheduled job)", extra=((LATER, "C:\\x.exe"),)),),
            id="at-time",
        ),
        pytest.param(
            "at 9:30:15 cmd", (_e(K.PERSISTENCE, None, "at (scheduled job)", extra=((LATER, "cmd"),)),), id="at-seconds"
        ),
        pytest.param("at \\\\srv", (), id="at-list-remote"),
        pytest.param(
            "vssadmin delete shadows /all /quiet",
            (_e(K.DISK_DESTROY, None, "backups", extra=(("command", "vssadmin delete shadows /all /quiet"),)),),
            id="vssadmin-delete",
        ),
        pytest.param(
            "vssadmin resize shadowstorage /for=C: /on=C: /maxsize=401MB",
            (
                _e(
                    K.DISK_DESTROY,
                    None,
                    "backups",
                    extra=(("command", "vssadmin resize shadowstorage /for=c: /on=c: /maxsize=401mb"),),
                ),
            ),
            id="vssadmin-resize",
        ),
        pytest.param("vssadmin list shadows", (), id="vssadmin-list"),
        pytest.param(
            "wbadmin delete catalog -quiet",
            (_e(K.DISK_DESTROY, None, "backups", extra=(("command", "wbadmin delete catalog -quiet"),)),),
            id="wbadmin-catalog",
        ),
        pytest.param(
            "wbadmin delete systemstatebackup -keepversions:0",
            (
                _e(
                    K.DISK_DESTROY,
                    None,
                    "backups",
                    extra=(("command", "wbadmin delete systemstatebackup -keepversions:0"),),
                ),
            ),
            id="wbadmin-systemstate",
        ),
        pytest.param(
            "wbadmin delete backup",
            (_e(K.DISK_DESTROY, None, "backups", extra=(("command", "wbadmin delete backup"),)),),
            id="wbadmin-backup",
        ),
        pytest.param(
            "wbadmin disable backup",
            (_e(K.DISK_DESTROY, None, "backups", extra=(("command", "wbadmin disable backup"),)),),
            id="wbadmin-disable",
        ),
        pytest.param("wbadmin get versions", (), id="wbadmin-get"),
        pytest.param(
            "reagentc /disable",
            (_e(K.DISK_DESTROY, None, "backups", extra=(("command", "reagentc /disable"),)),),
            id="reagentc-disable",
        ),
        pytest.param("reagentc /info", (), id="reagentc-info"),
        pytest.param(
            "diskshadow delete shadows all",
            (_e(K.DISK_DESTROY, None, "backups", extra=(("command", "diskshadow delete"),)),),
            id="diskshadow-delete",
        ),
        pytest.param("diskshadow /l log.txt", (), id="diskshadow-log"),
        pytest.param("diskpart /s wipe.txt", (_e(K.DISK_DESTROY, None, "diskpart"),), id="diskpart"),
        pytest.param(
            "systemreset -factoryreset", (_e(K.DISK_DESTROY, None, "systemreset (factory reset)"),), id="systemreset"
        ),
        pytest.param("wevtutil cl Security", (_e(K.LOG_CLEAR, "Security", "wevtutil cl"),), id="wevtutil-cl"),
        pytest.param("wevtutil clear-log System", (_e(K.LOG_CLEAR, "System", "wevtutil cl"),), id="wevtutil-clear-log"),
        pytest.param("wevtutil qe Security /c:5", (), id="wevtutil-qe"),
        pytest.param(
            "wevtutil sl Security /e:false",
            (
                _e(
                    K.SECURITY_WEAKENING,
                    "Security",
                    "event-log",
                    extra=(("command", "wevtutil sl /e:false (log disabled)"),),
                ),
            ),
            id="wevtutil-disable",
        ),
        pytest.param(
            "wevtutil sl Security /enabled:0",
            (
                _e(
                    K.SECURITY_WEAKENING,
                    "Security",
                    "event-log",
                    extra=(("command", "wevtutil sl /e:false (log disabled)"),),
                ),
            ),
            id="wevtutil-disable-0",
        ),
        pytest.param(
            "wevtutil sl Security /e:no",
            (
                _e(
                    K.SECURITY_WEAKENING,
                    "Security",
                    "event-log",
                    extra=(("command", "wevtutil sl /e:false (log disabled)"),),
                ),
            ),
            id="wevtutil-disable-no",
        ),
        pytest.param("wevtutil sl Security /e:true", (), id="wevtutil-enable"),
        pytest.param(
            "wevtutil sl Security /ms:65536",
            (_e(K.LOG_CLEAR, "Security", "wevtutil sl /ms (log shrunk)"),),
            id="wevtutil-shrink",
        ),
        pytest.param(
            "wevtutil sl Security /ms:1048575",
            (_e(K.LOG_CLEAR, "Security", "wevtutil sl /ms (log shrunk)"),),
            id="wevtutil-just-below",
        ),
        pytest.param("wevtutil sl Security /maxsize:1048576", (), id="wevtutil-one-mib"),
        pytest.param("wevtutil sl Security /ms:abc", (), id="wevtutil-ms-text"),
        pytest.param("wevtutil sl Security /rt:true", (), id="wevtutil-retention"),
        pytest.param("shutdown /s /t 0", (_e(K.POWER, None, "shutdown /s"),), id="shutdown-s"),
        pytest.param("shutdown /r /m \\\\srv01", (_e(K.POWER, "\\\\srv01", "shutdown /r"),), id="shutdown-r-remote"),
        pytest.param("shutdown /a", (), id="shutdown-abort"),
        pytest.param("shutdown /s /a", (), id="shutdown-abort-with-s"),
        pytest.param("shutdown /l", (_e(K.POWER, None, "shutdown /l"),), id="shutdown-l"),
        pytest.param("shutdown /h", (_e(K.POWER, None, "shutdown /h"),), id="shutdown-h"),
        pytest.param("shutdown /p", (_e(K.POWER, None, "shutdown /p"),), id="shutdown-p"),
        pytest.param("shutdown /g", (_e(K.POWER, None, "shutdown /g"),), id="shutdown-g"),
        pytest.param("shutdown /sg", (_e(K.POWER, None, "shutdown /sg"),), id="shutdown-sg"),
        pytest.param("shutdown /hybrid /s", (_e(K.POWER, None, "shutdown /s"),), id="shutdown-hybrid"),
        pytest.param("shutdown /?", (), id="shutdown-help"),
        pytest.param("shutdown /i", (), id="shutdown-i"),
        pytest.param("psshutdown -r", (_e(K.POWER, None, "psshutdown"),), id="psshutdown"),
        pytest.param("logoff", (_e(K.POWER, None, "logoff"),), id="logoff"),
        pytest.param("cmdkey /list", (_e(K.CREDENTIAL_ACCESS, None, "cmdkey /list"),), id="cmdkey-list"),
        pytest.param(
            "cmdkey /list:TERMSRV/srv01",
            (_e(K.CREDENTIAL_ACCESS, "TERMSRV/srv01", "cmdkey /list"),),
            id="cmdkey-list-target",
        ),
        pytest.param(
            "cmdkey /add:srv01 /user:bob /pass:x", (_e(K.ACCOUNT_CHANGE, "srv01", "cmdkey /add"),), id="cmdkey-add"
        ),
        pytest.param(
            "cmdkey /generic:git:https://github.com /user:bob /pass:x",
            (_e(K.ACCOUNT_CHANGE, "git:https://github.com", "cmdkey /generic"),),
            id="cmdkey-generic",
        ),
        pytest.param("cmdkey /delete:srv01", (_e(K.ACCOUNT_CHANGE, "srv01", "cmdkey /delete"),), id="cmdkey-delete"),
        pytest.param("cmdkey", (), id="cmdkey-bare"),
        pytest.param("vaultcmd /list", (_e(K.CREDENTIAL_ACCESS, None, "vaultcmd /list"),), id="vaultcmd-list"),
        pytest.param(
            'vaultcmd /listcreds:"Windows Credentials" /all',
            (_e(K.CREDENTIAL_ACCESS, None, "vaultcmd /list"),),
            id="vaultcmd-listcreds",
        ),
        pytest.param("vaultcmd -list", (_e(K.CREDENTIAL_ACCESS, None, "vaultcmd /list"),), id="vaultcmd-dash-list"),
        pytest.param(
            'vaultcmd /addcreds:"Windows Credentials" /credtype:x',
            (_e(K.ACCOUNT_CHANGE, None, "vaultcmd /addcreds"),),
            id="vaultcmd-addcreds",
        ),
        pytest.param(
            'vaultcmd /deletecreds:"Windows Credentials" /credtype:x',
            (_e(K.ACCOUNT_CHANGE, None, "vaultcmd /addcreds"),),
            id="vaultcmd-deletecreds",
        ),
        pytest.param("vaultcmd", (), id="vaultcmd-bare"),
        pytest.param(
            "procdump -ma lsass.exe C:\\Temp\\l.dmp",
            (
                _e(K.CREDENTIAL_ACCESS, "lsass.exe", "procdump (process memory dump)"),
                _e(K.WRITE, "C:\\Temp\\l.dmp", "procdump dump file"),
            ),
            id="procdump-lsass",
        ),
        pytest.param(
            "procdump64 -accepteula -ma 624 out.dmp",
            (
                _e(K.CREDENTIAL_ACCESS, "pid:624", "procdump64 (process memory dump)"),
                _e(K.WRITE, "out.dmp", "procdump64 dump file"),
            ),
            id="procdump64-pid",
        ),
        pytest.param(
            "procdump -ma notepad.exe C:\\Temp\\n.dmp",
            (_e(K.WRITE, "C:\\Temp\\n.dmp", "procdump dump file"),),
            id="procdump-notepad",
        ),
        pytest.param(
            "procdump -ma lsaiso",
            (_e(K.CREDENTIAL_ACCESS, "lsaiso", "procdump (process memory dump)"),),
            id="procdump-lsaiso",
        ),
        pytest.param(
            "procdump -ma LSASS C:\\Temp\\A.DMP",
            (
                _e(K.CREDENTIAL_ACCESS, "LSASS", "procdump (process memory dump)"),
                _e(K.WRITE, "C:\\Temp\\A.DMP", "procdump dump file"),
            ),
            id="procdump-upper",
        ),
        pytest.param("procdump -n 3 -s 5 chrome.exe", (), id="procdump-options-chrome"),
        pytest.param(
            "procdump -accepteula",
            (_e(K.CREDENTIAL_ACCESS, None, "procdump (process memory dump)"),),
            id="procdump-no-process",
        ),
        pytest.param(
            "sqldumper 624 0 0x0110",
            (_e(K.CREDENTIAL_ACCESS, "pid:624", "sqldumper (process memory dump)"),),
            id="sqldumper-pid",
        ),
        pytest.param(
            "createdump 624",
            (_e(K.CREDENTIAL_ACCESS, "pid:624", "createdump (process memory dump)"),),
            id="createdump-pid",
        ),
        pytest.param(
            "ntsd -pn lsass.exe",
            (
                _e(K.CREDENTIAL_ACCESS, "lsass.exe", "ntsd (debugger attached to the process)"),
                _e(K.KILL_FORCED, "lsass.exe", "ntsd (debugger: ends it on quit)"),
            ),
            id="ntsd-lsass",
        ),
        pytest.param(
            "cdb -p 624",
            (
                _e(K.CREDENTIAL_ACCESS, "pid:624", "cdb (debugger attached to the process)"),
                _e(K.KILL_FORCED, "pid:624", "cdb (debugger: ends it on quit)"),
            ),
            id="cdb-pid",
        ),
        pytest.param(
            "windbg -pn notepad.exe",
            (_e(K.KILL_FORCED, "notepad.exe", "windbg (debugger: ends it on quit)"),),
            id="windbg-notepad",
        ),
        pytest.param(
            "windbg -pn lsaiso",
            (
                _e(K.CREDENTIAL_ACCESS, "lsaiso", "windbg (debugger attached to the process)"),
                _e(K.KILL_FORCED, "lsaiso", "windbg (debugger: ends it on quit)"),
            ),
            id="windbg-lsaiso",
        ),
        pytest.param(
            "ntsd -c q -pn explorer.exe",
            (_e(K.KILL_FORCED, "explorer.exe", "ntsd (debugger: ends it on quit)"),),
            id="ntsd-quit-explorer",
        ),
        pytest.param("cdb C:\\x.exe", (), id="cdb-start-program"),
        pytest.param("windbg", (), id="windbg-bare"),
        pytest.param(
            "ntrights -u bob +r SeDebugPrivilege", (_e(K.ACCOUNT_CHANGE, "bob", "ntrights (privilege)"),), id="ntrights"
        ),
        pytest.param(
            "secedit /configure /db x.sdb /cfg weak.inf",
            (_e(K.ACCOUNT_CHANGE, None, "secedit /configure (security policy)"),),
            id="secedit-configure",
        ),
        pytest.param(
            "secedit /import /db x.sdb /cfg weak.inf",
            (_e(K.ACCOUNT_CHANGE, None, "secedit /configure (security policy)"),),
            id="secedit-import",
        ),
        pytest.param(
            "secedit /export /cfg C:\\Temp\\sec.inf",
            (_e(K.WRITE, "C:\\Temp\\sec.inf", "secedit /export"),),
            id="secedit-export",
        ),
        pytest.param("secedit /analyze /db x.sdb", (), id="secedit-analyze"),
        pytest.param(
            'dsadd user "CN=bob,DC=corp,DC=local"',
            (_e(K.ACCOUNT_CHANGE, "CN=bob,DC=corp,DC=local", "dsadd user"),),
            id="dsadd-user",
        ),
        pytest.param(
            'dsmod user "CN=bob,DC=corp,DC=local" -pwd x',
            (_e(K.ACCOUNT_CHANGE, "CN=bob,DC=corp,DC=local", "dsmod user"),),
            id="dsmod-user",
        ),
        pytest.param("dsadd", (_e(K.ACCOUNT_CHANGE, None, "dsadd"),), id="dsadd-bare"),
        pytest.param(
            'mimikatz "privilege::debug" "sekurlsa::logonpasswords" exit',
            (
                _e(K.CREDENTIAL_ACCESS, None, "mimikatz"),
                _e(K.CREDENTIAL_ACCESS, None, "mimikatz command sekurlsa::logonpasswords"),
            ),
            id="mimikatz",
        ),
        pytest.param("pypykatz lsa minidump l.dmp", (_e(K.CREDENTIAL_ACCESS, None, "pypykatz"),), id="pypykatz"),
        pytest.param(
            'ntdsutil "ac i ntds" "ifm" "create full C:\\x" q q',
            (_e(K.CREDENTIAL_ACCESS, None, "ntdsutil"),),
            id="ntdsutil",
        ),
        pytest.param("Rubeus.exe kerberoast", (_e(K.CREDENTIAL_ACCESS, None, "rubeus"),), id="rubeus"),
        pytest.param("lazagne.exe all", (_e(K.CREDENTIAL_ACCESS, None, "lazagne"),), id="lazagne"),
        pytest.param(
            "notepad token::elevate",
            (_e(K.CREDENTIAL_ACCESS, None, "mimikatz command token::elevate"),),
            id="mimikatz-words-any-program",
        ),
        pytest.param(
            'rundll32 C:\\x.dll,Go "lsadump::sam"',
            (_e(K.EXECUTE, "C:\\x.dll", "rundll32"), _e(K.CREDENTIAL_ACCESS, None, "mimikatz command lsadump::sam")),
            id="mimikatz-words-rundll32",
        ),
        pytest.param(
            "foo.exe dpapi::cred /in:x",
            (_e(K.CREDENTIAL_ACCESS, None, "mimikatz command dpapi::cred"),),
            id="mimikatz-words-dpapi",
        ),
        pytest.param("notepad sekurlsa.txt", (), id="no-mimikatz-words"),
        pytest.param(
            "cdb -p",
            (
                _e(K.CREDENTIAL_ACCESS, None, "cdb (debugger attached to the process)"),
                _e(K.KILL_FORCED, None, "cdb (debugger: ends it on quit)"),
            ),
            id="cdb-p-without-pid",
        ),
        pytest.param(
            "schtasks /create /sc onlogon /tr C:\\x.exe",
            (_e(K.PERSISTENCE, None, "schtasks /create", extra=(("command", "C:\\x.exe"), (LATER, "C:\\x.exe"))),),
            id="schtasks-create-no-name",
        ),
        pytest.param("net share data=", (_e(K.NETWORK_CHANGE, None, "net share"),), id="net-share-empty-path"),
        pytest.param(
            "net group Staff bob /delete",
            (_e(K.ACCOUNT_CHANGE, "Staff", "net group /delete", extra=(("member", "bob"),)),),
            id="net-group-delete",
        ),
        pytest.param("wevtutil sl Security", (), id="wevtutil-sl-no-change"),
    ],
)
def test_system_programs(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# wmic: subscriptions, shadow copies, processes, accounts, power, services, event logs


@requirement("S-RULE-74")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            'wmic /namespace:\\\\root\\subscription path __EventFilter create Name="x"',
            (_e(K.PERSISTENCE, None, "wmic WMI event subscription", extra=(("rule", "persistence-hijack"),)),),
            id="wmic-event-filter",
        ),
        pytest.param(
            'wmic /namespace:\\\\root\\subscription path CommandLineEventConsumer create Name="x"',
            (_e(K.PERSISTENCE, None, "wmic WMI event subscription", extra=(("rule", "persistence-hijack"),)),),
            id="wmic-cmdline-consumer",
        ),
        pytest.param(
            'wmic /namespace:\\\\root\\subscription path ActiveScriptEventConsumer create Name="x"',
            (_e(K.PERSISTENCE, None, "wmic WMI event subscription", extra=(("rule", "persistence-hijack"),)),),
            id="wmic-script-consumer",
        ),
        pytest.param(
            'wmic /namespace:\\\\root\\subscription path __FilterToConsumerBinding create Filter="x"',
            (_e(K.PERSISTENCE, None, "wmic WMI event subscription", extra=(("rule", "persistence-hijack"),)),),
            id="wmic-binding",
        ),
        pytest.param(
            "wmic shadowcopy delete",
            (_e(K.DISK_DESTROY, None, "backups", extra=(("command", "wmic shadowcopy delete"),)),),
            id="wmic-shadowcopy-delete",
        ),
        pytest.param("wmic shadowcopy list brief", (), id="wmic-shadowcopy-list"),
        pytest.param(
            'wmic process call create "C:\\Windows\\System32\\calc.exe"',
            (_e(K.EXECUTE, "C:\\Windows\\System32\\calc.exe", "wmic process call create"),),
            id="wmic-process-create",
        ),
        pytest.param(
            'wmic /node:srv01 /user:admin /password:x process call create "cmd.exe"',
            (_e(K.EXECUTE, "cmd.exe", "wmic process call create"),),
            id="wmic-remote-process-create",
        ),
        pytest.param("wmic process create x", (), id="wmic-process-create-no-call"),
        pytest.param(
            'wmic process where name="lsass.exe" delete',
            (_e(K.KILL_FORCED, "lsass.exe", "Win32_Process terminate"),),
            id="wmic-kill-lsass",
        ),
        pytest.param(
            "wmic process where processid=624 call terminate",
            (_e(K.KILL_FORCED, "pid:624", "Win32_Process terminate"),),
            id="wmic-kill-pid",
        ),
        pytest.param(
            "wmic process where handle=624 delete",
            (_e(K.KILL_FORCED, "pid:624", "Win32_Process terminate"),),
            id="wmic-kill-handle",
        ),
        pytest.param(
            "wmic process where \"name like 'note%'\" delete",
            (_e(K.KILL_FORCED, "note*", "Win32_Process terminate"),),  # LIKE's % is * (S-RULE-88)
            id="wmic-kill-like",
        ),
        pytest.param(
            "wmic process where \"commandline like '%x%'\" delete",
            (_e(K.KILL_FORCED, None, "Win32_Process terminate (filtered)"),),
            id="wmic-kill-filtered",
        ),
        pytest.param(
            "wmic process delete",
            (_e(K.KILL_ALL, None, "Win32_Process terminate (every process)"),),
            id="wmic-kill-all",
        ),
        pytest.param("wmic process list brief", (), id="wmic-process-list"),
        pytest.param(
            'wmic useraccount where name="Guest" set disabled=false',
            (_e(K.ACCOUNT_CHANGE, "Guest", "wmic useraccount"),),
            id="wmic-user-set",
        ),
        pytest.param(
            "wmic useraccount where name='bob' rename eve",
            (_e(K.ACCOUNT_CHANGE, "bob", "wmic useraccount"),),
            id="wmic-user-rename",
        ),
        pytest.param(
            'wmic useraccount where name="bob" delete',
            (_e(K.ACCOUNT_CHANGE, "bob", "wmic useraccount"),),
            id="wmic-user-delete",
        ),
        pytest.param("wmic useraccount call x", (_e(K.ACCOUNT_CHANGE, None, "wmic useraccount"),), id="wmic-user-call"),
        pytest.param("wmic useraccount list brief", (), id="wmic-user-list"),
        pytest.param("wmic os call shutdown", (_e(K.POWER, None, "wmic os shutdown"),), id="wmic-os-shutdown"),
        pytest.param(
            "wmic os where primary=true call reboot", (_e(K.POWER, None, "wmic os shutdown"),), id="wmic-os-reboot"
        ),
        pytest.param(
            "wmic os call win32shutdown 1", (_e(K.POWER, None, "wmic os shutdown"),), id="wmic-os-win32shutdown"
        ),
        pytest.param("wmic os get caption", (), id="wmic-os-get"),
        pytest.param(
            'wmic service where name="WinDefend" call stopservice',
            (_e(K.SECURITY_WEAKENING, "WinDefend", "defender", extra=(("command", "Stop-Service"),)),),
            id="wmic-service-stop",
        ),
        pytest.param(
            'wmic service where name="WinDefend" call changestartmode disabled',
            (_e(K.SECURITY_WEAKENING, "WinDefend", "defender", extra=(("command", "Set-Service"),)),),
            id="wmic-service-disable",
        ),
        pytest.param('wmic service where name="WinDefend" call changestartmode auto', (), id="wmic-service-auto"),
        pytest.param(
            'wmic service where name="WinDefend" call changestartmode',
            (_e(K.SECURITY_WEAKENING, "WinDefend", "defender", extra=(("command", "Set-Service"),)),),
            id="wmic-service-mode-missing",
        ),
        pytest.param(
            'wmic service where name="WinDefend" delete',
            (_e(K.SECURITY_WEAKENING, "WinDefend", "defender", extra=(("command", "Remove-Service"),)),),
            id="wmic-service-delete",
        ),
        pytest.param('wmic service where name="Spooler" delete', (), id="wmic-service-delete-spooler"),
        pytest.param("wmic service list brief", (), id="wmic-service-list"),
        pytest.param(
            'wmic nteventlog where filename="security" call cleareventlog',
            (_e(K.LOG_CLEAR, "security", "wmic nteventlog cleareventlog"),),
            id="wmic-eventlog-filename",
        ),
        pytest.param(
            "wmic nteventlog where logfilename='System' call cleareventlog",
            (_e(K.LOG_CLEAR, "System", "wmic nteventlog cleareventlog"),),
            id="wmic-eventlog-logfilename",
        ),
        pytest.param(
            "wmic nteventlog call cleareventlog",
            (_e(K.LOG_CLEAR, None, "wmic nteventlog cleareventlog"),),
            id="wmic-eventlog-all",
        ),
        pytest.param("wmic nteventlog list brief", (), id="wmic-eventlog-list"),
    ],
)
def test_wmic(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# Cmdlets: event logs, accounts, persistence, WMI, disks, power, New-Object, credential tools


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "Clear-EventLog -LogName Security", (_e(K.LOG_CLEAR, "Security", "Clear-EventLog"),), id="clear-eventlog"
        ),
        pytest.param(
            "Clear-EventLog -LogName Security,System",
            (_e(K.LOG_CLEAR, "Security", "Clear-EventLog"), _e(K.LOG_CLEAR, "System", "Clear-EventLog")),
            id="clear-eventlog-two",
        ),
        pytest.param("Clear-EventLog", (_e(K.LOG_CLEAR, None, "Clear-EventLog"),), id="clear-eventlog-bare"),
        pytest.param(
            "Remove-EventLog -LogName MyApp", (_e(K.LOG_CLEAR, "MyApp", "Remove-EventLog"),), id="remove-eventlog"
        ),
        pytest.param(
            "Limit-EventLog -LogName Security -MaximumSize 64KB",
            (_e(K.LOG_CLEAR, "Security", "Limit-EventLog -MaximumSize (log shrunk)"),),
            id="limit-64kb",
        ),
        pytest.param(
            "Limit-EventLog -LogName Security -MaximumSize 1048575",
            (_e(K.LOG_CLEAR, "Security", "Limit-EventLog -MaximumSize (log shrunk)"),),
            id="limit-bytes-below",
        ),
        pytest.param("Limit-EventLog -LogName Security -MaximumSize 1MB", (), id="limit-1mb"),
        pytest.param("Limit-EventLog -LogName Security -MaximumSize 1048576", (), id="limit-bytes-1mib"),
        pytest.param("Limit-EventLog -LogName Security -MaximumSize 20MB", (), id="limit-20mb"),
        pytest.param("Limit-EventLog -LogName Security -MaximumSize 1GB", (), id="limit-1gb"),
        pytest.param(
            "Limit-EventLog -LogName Security -OverflowAction OverwriteAsNeeded", (), id="limit-overflow-only"
        ),
        pytest.param(
            "Limit-EventLog -LogName Security -MaximumSize $s",
            (_e(K.LOG_CLEAR, "Security", "Limit-EventLog -MaximumSize (log shrunk)"),),
            id="limit-variable",
        ),
        pytest.param(
            "Limit-EventLog -LogName Security,System -MaximumSize 512KB",
            (
                _e(K.LOG_CLEAR, "Security", "Limit-EventLog -MaximumSize (log shrunk)"),
                _e(K.LOG_CLEAR, "System", "Limit-EventLog -MaximumSize (log shrunk)"),
            ),
            id="limit-two-logs",
        ),
        pytest.param(
            "New-LocalUser -Name bob -Password $p", (_e(K.ACCOUNT_CHANGE, "bob", "New-LocalUser"),), id="new-localuser"
        ),
        pytest.param(
            "New-LocalUser eve -NoPassword",
            (_e(K.ACCOUNT_CHANGE, "eve", "New-LocalUser"),),
            id="new-localuser-positional",
        ),
        pytest.param(
            "Set-LocalUser -Name Administrator -Password $p",
            (_e(K.ACCOUNT_CHANGE, "Administrator", "Set-LocalUser"),),
            id="set-localuser",
        ),
        pytest.param(
            "Remove-LocalUser -SID S-1-5-21-1-2-3-1001",
            (_e(K.ACCOUNT_CHANGE, "S-1-5-21-1-2-3-1001", "Remove-LocalUser"),),
            id="remove-localuser-sid",
        ),
        pytest.param(
            "Enable-LocalUser Guest", (_e(K.ACCOUNT_CHANGE, "Guest", "Enable-LocalUser"),), id="enable-localuser"
        ),
        pytest.param(
            "Disable-LocalUser -Name bob", (_e(K.ACCOUNT_CHANGE, "bob", "Disable-LocalUser"),), id="disable-localuser"
        ),
        pytest.param(
            "Rename-LocalUser -Name Administrator -NewName adm",
            (_e(K.ACCOUNT_CHANGE, "Administrator", "Rename-LocalUser"),),
            id="rename-localuser",
        ),
        pytest.param(
            "Add-LocalGroupMember -Group Administrators -Member bob",
            (_e(K.ACCOUNT_CHANGE, "Administrators", "Add-LocalGroupMember", extra=(("member", "bob"),)),),
            id="add-member",
        ),
        pytest.param(
            "Add-LocalGroupMember -Group Administrators -Member bob,eve",
            (
                _e(
                    K.ACCOUNT_CHANGE,
                    "Administrators",
                    "Add-LocalGroupMember",
                    extra=(("member", "bob"), ("member", "eve")),
                ),
            ),
            id="add-two-members",
        ),
        pytest.param(
            "Add-LocalGroupMember Administrators bob",
            (_e(K.ACCOUNT_CHANGE, "Administrators", "Add-LocalGroupMember", extra=(("member", "bob"),)),),
            id="add-member-positional",
        ),
        pytest.param(
            'Remove-LocalGroupMember -Group "Remote Desktop Users" -Member bob',
            (_e(K.ACCOUNT_CHANGE, "Remote Desktop Users", "Remove-LocalGroupMember", extra=(("member", "bob"),)),),
            id="remove-member",
        ),
        pytest.param("New-LocalGroup -Name Ops", (_e(K.ACCOUNT_CHANGE, "Ops", "New-LocalGroup"),), id="new-localgroup"),
        pytest.param(
            "Remove-LocalGroup Ops", (_e(K.ACCOUNT_CHANGE, "Ops", "Remove-LocalGroup"),), id="remove-localgroup"
        ),
        pytest.param("New-ADUser -Name bob", (_e(K.ACCOUNT_CHANGE, "bob", "New-ADUser"),), id="new-aduser"),
        pytest.param(
            "Set-ADUser bob -PasswordNeverExpires $true", (_e(K.ACCOUNT_CHANGE, "bob", "Set-ADUser"),), id="set-aduser"
        ),
        pytest.param(
            'Add-ADGroupMember -Identity "Domain Admins" -Members bob',
            (_e(K.ACCOUNT_CHANGE, "Domain Admins", "Add-ADGroupMember", extra=(("member", "bob"),)),),
            id="add-adgroupmember",
        ),
        pytest.param(
            "Set-ADAccountPassword -Identity bob -Reset",
            (_e(K.ACCOUNT_CHANGE, "bob", "Set-ADAccountPassword"),),
            id="set-adaccountpassword",
        ),
        pytest.param("Enable-ADAccount bob", (_e(K.ACCOUNT_CHANGE, "bob", "Enable-ADAccount"),), id="enable-adaccount"),
        pytest.param(
            "Unlock-ADAccount -Identity bob", (_e(K.ACCOUNT_CHANGE, "bob", "Unlock-Adaccount"),), id="unlock-adaccount"
        ),
        pytest.param(
            "New-Service -Name Upd -BinaryPathName C:\\x.exe",
            (_e(K.PERSISTENCE, "Upd", "New-Service", extra=(("command", "C:\\x.exe"), (LATER, "C:\\x.exe"))),),
            id="new-service",
        ),
        pytest.param(
            "New-Service Upd C:\\x.exe",
            (_e(K.PERSISTENCE, "Upd", "New-Service", extra=(("command", "C:\\x.exe"), (LATER, "C:\\x.exe"))),),
            id="new-service-positional",
        ),
        pytest.param(
            "Register-ScheduledTask -TaskName Upd -Action $a -Trigger $t",
            (_e(K.PERSISTENCE, "Upd", "Register-ScheduledTask"),),
            id="register-task",
        ),
        pytest.param(
            "Set-ScheduledTask -TaskName Upd -Action $a",
            (_e(K.PERSISTENCE, "Upd", "Set-ScheduledTask"),),
            id="set-task",
        ),
        pytest.param(
            'New-ScheduledTask -Action $a -Description "nightly"',
            (_e(K.PERSISTENCE, "nightly", "New-ScheduledTask"),),
            id="new-task",
        ),
        pytest.param(
            'New-ScheduledTaskAction -Execute C:\\x.exe -Argument "/q"',
            (
                _e(
                    K.PERSISTENCE,
                    "C:\\x.exe",
                    "New-ScheduledTaskAction",
                    extra=(("command", "/q"), (LATER, "C:\\x.exe /q")),
                ),
            ),
            id="new-task-action",
        ),
        pytest.param(
            "New-ScheduledTaskAction C:\\x.exe",
            (_e(K.PERSISTENCE, "C:\\x.exe", "New-ScheduledTaskAction", extra=((LATER, "C:\\x.exe"),)),),
            id="new-task-action-positional",
        ),
        pytest.param(
            "New-ScheduledTaskTrigger -AtLogOn",
            (_e(K.PERSISTENCE, None, "New-ScheduledTaskTrigger"),),
            id="new-task-trigger-logon",
        ),
        pytest.param(
            "Set-WmiInstance -Class __EventFilter -Namespace root\\subscription -Arguments @{Name='x'}",
            (
                _e(
                    K.PERSISTENCE,
                    "__eventfilter",
                    "Set-WmiInstance WMI event subscription",
                    extra=(("rule", "persistence-hijack"),),
                ),
            ),
            id="set-wmiinstance-filter",
        ),
        pytest.param("Set-WmiInstance -Class Win32_Environment -Arguments @{Name='x'}", (), id="set-wmiinstance-env"),
        pytest.param(
            "New-CimInstance -ClassName CommandLineEventConsumer -Namespace root/subscription -Property @{Name='x'}",
            (
                _e(
                    K.PERSISTENCE,
                    "commandlineeventconsumer",
                    "New-CimInstance WMI event subscription",
                    extra=(("rule", "persistence-hijack"),),
                ),
            ),
            id="cim-cmdline-consumer",
        ),
        pytest.param(
            "New-CimInstance -ClassName __FilterToConsumerBinding -Property @{}",
            (
                _e(
                    K.PERSISTENCE,
                    "__filtertoconsumerbinding",
                    "New-CimInstance WMI event subscription",
                    extra=(("rule", "persistence-hijack"),),
                ),
            ),
            id="cim-binding",
        ),
        pytest.param(
            "New-CimInstance -ClassName LogFileEventConsumer -Property @{}",
            (
                _e(
                    K.PERSISTENCE,
                    "logfileeventconsumer",
                    "New-CimInstance WMI event subscription",
                    extra=(("rule", "persistence-hijack"),),
                ),
            ),
            id="cim-logfile-consumer",
        ),
        pytest.param(
            "New-CimInstance -ClassName SMTPEventConsumer -Property @{}",
            (
                _e(
                    K.PERSISTENCE,
                    "smtpeventconsumer",
                    "New-CimInstance WMI event subscription",
                    extra=(("rule", "persistence-hijack"),),
                ),
            ),
            id="cim-smtp-consumer",
        ),
        pytest.param(
            "New-CimInstance -ClassName ActiveScriptEventConsumer -Property @{}",
            (
                _e(
                    K.PERSISTENCE,
                    "activescripteventconsumer",
                    "New-CimInstance WMI event subscription",
                    extra=(("rule", "persistence-hijack"),),
                ),
            ),
            id="cim-script-consumer",
        ),
        pytest.param(
            "New-CimInstance -ClassName __EventConsumer -Property @{}",
            (
                _e(
                    K.PERSISTENCE,
                    "__eventconsumer",
                    "New-CimInstance WMI event subscription",
                    extra=(("rule", "persistence-hijack"),),
                ),
            ),
            id="cim-event-consumer",
        ),
        pytest.param("New-CimInstance Win32_Share -Property @{}", (), id="cim-share"),
        pytest.param(
            'Invoke-WmiMethod -Class Win32_Process -Name Create -ArgumentList "calc.exe"',
            (_e(K.EXECUTE, "calc.exe", "Invoke-WmiMethod Win32_Process Create"),),
            id="wmi-process-create",
        ),
        pytest.param(
            "Invoke-CimMethod -ClassName Win32_Process -MethodName Create -Arguments @{CommandLine='calc.exe'}",
            (_e(K.EXECUTE, "calc.exe", "Invoke-CimMethod Win32_Process Create"),),
            id="cim-process-create",
        ),
        pytest.param(
            "Invoke-CimMethod -Query \"SELECT * FROM Win32_Process WHERE Name='lsass.exe'\" -MethodName Terminate",
            (_e(K.KILL_FORCED, "lsass.exe", "Win32_Process terminate"),),
            id="cim-terminate-query",
        ),
        pytest.param(
            'Invoke-WmiMethod -Class Win32_Process -Name Terminate -Filter "ProcessId=624"',
            (_e(K.KILL_FORCED, "pid:624", "Win32_Process terminate"),),
            id="wmi-terminate-pid",
        ),
        pytest.param(
            "Invoke-WmiMethod -Class Win32_Process -Name Terminate",
            (_e(K.KILL_ALL, None, "Win32_Process terminate (every process)"),),
            id="wmi-terminate-all",
        ),
        pytest.param("Invoke-WmiMethod -Class Win32_Process -Name GetOwner", (), id="wmi-process-getowner"),
        pytest.param(
            "Invoke-CimMethod -ClassName Win32_OperatingSystem -MethodName Win32Shutdown -Arguments @{Flags=1}",
            (_e(K.POWER, None, "Invoke-CimMethod Win32_OperatingSystem win32shutdown"),),
            id="cim-os-win32shutdown",
        ),
        pytest.param(
            "Invoke-CimMethod -ClassName Win32_OperatingSystem -MethodName Reboot",
            (_e(K.POWER, None, "Invoke-CimMethod Win32_OperatingSystem reboot"),),
            id="cim-os-reboot",
        ),
        pytest.param(
            "Invoke-WmiMethod -Class Win32_OperatingSystem -Name Shutdown",
            (_e(K.POWER, None, "Invoke-WmiMethod Win32_OperatingSystem shutdown"),),
            id="wmi-os-shutdown",
        ),
        pytest.param(
            "Invoke-WmiMethod -Class Win32_OperatingSystem -Name Win32ShutdownTracker",
            (_e(K.POWER, None, "Invoke-WmiMethod Win32_OperatingSystem win32shutdowntracker"),),
            id="wmi-os-tracker",
        ),
        pytest.param(  # the system clock (S-RULE-215)
            "Invoke-WmiMethod -Class Win32_OperatingSystem -Name SetDateTime",
            (
                _e(
                    K.SECURITY_WEAKENING,
                    None,
                    "system-clock",
                    extra=(("command", "Invoke-WmiMethod Win32_OperatingSystem SetDateTime"),),
                ),
            ),
            id="wmi-os-setdatetime",
        ),
        pytest.param("Invoke-WmiMethod -Class Win32_OperatingSystem -Name SetDateTimeX", (), id="wmi-os-other-method"),
        pytest.param(
            "Invoke-CimMethod -ClassName Win32_Service -MethodName Create -Arguments @{Name='x'}",
            (_e(K.PERSISTENCE, "x", "Invoke-CimMethod Win32_Service Create"),),
            id="cim-service-create",
        ),
        pytest.param(
            "Invoke-WmiMethod -Class Win32_Service -Name StopService -Filter \"Name='WinDefend'\"",
            (_e(K.SECURITY_WEAKENING, "WinDefend", "defender", extra=(("command", "Stop-Service"),)),),
            id="wmi-service-stop",
        ),
        pytest.param(
            "Invoke-CimMethod -Query \"SELECT * FROM Win32_Service WHERE Name='WinDefend'\""
            " -MethodName ChangeStartMode -Arguments @{StartMode='Disabled'}",
            (_e(K.SECURITY_WEAKENING, "WinDefend", "defender", extra=(("command", "Set-Service"),)),),
            id="cim-service-disable-query",
        ),
        pytest.param(
            "Invoke-WmiMethod -Class Win32_Service -Name StopService -Filter \"Name='Spooler'\"",
            (),
            id="wmi-service-stop-spooler",
        ),
        pytest.param(
            "Invoke-CimMethod -ClassName Win32_NTEventlogFile -MethodName ClearEventLog",
            (_e(K.LOG_CLEAR, None, "Invoke-CimMethod ClearEventLog"),),
            id="cim-clear-eventlog",
        ),
        pytest.param("Invoke-WmiMethod -Class Win32_NTEventlogFile -Name BackupEventLog", (), id="wmi-backup-eventlog"),
        pytest.param("Format-Volume -DriveLetter D", (_e(K.DISK_DESTROY, "D", "Format-Volume"),), id="format-volume"),
        pytest.param(
            "Format-Volume D -FileSystem NTFS",
            (_e(K.DISK_DESTROY, "D", "Format-Volume"),),
            id="format-volume-positional",
        ),
        pytest.param(
            "Format-Volume -FileSystemLabel Data",
            (_e(K.DISK_DESTROY, "Data", "Format-Volume"),),
            id="format-volume-label",
        ),
        pytest.param("Clear-Disk -Number 1 -RemoveData", (_e(K.DISK_DESTROY, "1", "Clear-Disk"),), id="clear-disk"),
        pytest.param(
            'Clear-Disk -FriendlyName "WD Blue"',
            (_e(K.DISK_DESTROY, "WD Blue", "Clear-Disk"),),
            id="clear-disk-friendly",
        ),
        pytest.param("Initialize-Disk -Number 2", (_e(K.DISK_DESTROY, "2", "Initialize-Disk"),), id="initialize-disk"),
        pytest.param(
            "Initialize-Disk -UniqueId 6002248",
            (_e(K.DISK_DESTROY, "6002248", "Initialize-Disk"),),
            id="initialize-disk-uniqueid",
        ),
        pytest.param(
            "Remove-Partition -DriveLetter E",
            (_e(K.DISK_DESTROY, "E", "Remove-Partition"),),
            id="remove-partition-letter",
        ),
        pytest.param(
            "Remove-Partition -DiskNumber 1 -PartitionNumber 2",
            (_e(K.DISK_DESTROY, "1", "Remove-Partition"),),
            id="remove-partition-numbers",
        ),
        pytest.param(
            "Remove-VirtualDisk -FriendlyName VD1",
            (_e(K.DISK_DESTROY, "VD1", "Remove-Virtualdisk"),),
            id="remove-virtualdisk",
        ),
        pytest.param(
            "Remove-StoragePool Pool1", (_e(K.DISK_DESTROY, "Pool1", "Remove-Storagepool"),), id="remove-storagepool"
        ),
        pytest.param(
            "Reset-PhysicalDisk -FriendlyName PhysicalDisk3",
            (_e(K.DISK_DESTROY, "PhysicalDisk3", "Reset-Physicaldisk"),),
            id="reset-physicaldisk",
        ),
        pytest.param(
            "Disable-ComputerRestore -Drive C:\\",
            (_e(K.DISK_DESTROY, None, "backups", extra=(("command", "Disable-ComputerRestore"),)),),
            id="disable-computerrestore",
        ),
        pytest.param("Restart-Computer -Force", (_e(K.POWER, None, "Restart-Computer"),), id="restart-computer"),
        pytest.param(
            "Restart-Computer -ComputerName srv01",
            (_e(K.POWER, "srv01", "Restart-Computer"),),
            id="restart-computer-remote",
        ),
        pytest.param(
            "Restart-Computer srv01", (_e(K.POWER, "srv01", "Restart-Computer"),), id="restart-computer-positional"
        ),
        pytest.param("Stop-Computer", (_e(K.POWER, None, "Stop-Computer"),), id="stop-computer"),
        pytest.param(
            "Restore-Computer -RestorePoint 42", (_e(K.POWER, None, "Restore-Computer"),), id="restore-computer"
        ),
        pytest.param(
            "New-Object Windows.Security.Credentials.PasswordVault",
            (_e(K.CREDENTIAL_ACCESS, None, "Windows PasswordVault"),),
            id="new-object-vault",
        ),
        pytest.param(
            "New-Object -TypeName System.IO.StreamWriter -ArgumentList C:\\Windows\\win.ini",
            (_e(K.WRITE, "C:\\Windows\\win.ini", "New-Object io.streamwriter"),),
            id="new-object-streamwriter",
        ),
        pytest.param(
            "New-Object IO.StreamReader C:\\x.txt",
            (_e(K.READ, "C:\\x.txt", "New-Object io.streamreader"),),
            id="new-object-streamreader",
        ),
        pytest.param("New-Object IO.StreamWriter", (), id="new-object-streamwriter-no-path"),
        pytest.param(
            "New-Object IO.FileStream -ArgumentList C:\\x.txt,Open,Read",
            (_e(K.READ, "C:\\x.txt", "New-Object IO.FileStream"),),
            id="new-object-filestream-read",
        ),
        pytest.param(
            "New-Object IO.FileStream -ArgumentList C:\\x.txt,Create",
            (_e(K.WRITE, "C:\\x.txt", "New-Object IO.FileStream"),),
            id="new-object-filestream-create",
        ),
        pytest.param(
            "New-Object IO.FileStream",
            (_e(K.WRITE, None, "New-Object IO.FileStream"),),
            id="new-object-filestream-no-args",
        ),
        pytest.param("New-Object System.Net.WebClient", (), id="new-object-webclient"),
        pytest.param(
            "Export-PfxCertificate -Cert Cert:\\CurrentUser\\My\\ABC -FilePath C:\\x.pfx -Password $p",
            (_e(K.CREDENTIAL_ACCESS, None, "export-pfxcertificate"),),
            id="export-pfx",
        ),
        pytest.param(
            "Out-Minidump -Process (Get-Process lsass)",
            (_e(K.CREDENTIAL_ACCESS, None, "Out-Minidump"),),
            id="out-minidump",
        ),
        pytest.param(
            "Invoke-Mimikatz -DumpCreds", (_e(K.CREDENTIAL_ACCESS, None, "Invoke-Mimikatz"),), id="invoke-mimikatz"
        ),
        pytest.param("Get-GPPPassword", (_e(K.CREDENTIAL_ACCESS, None, "Get-Gpppassword"),), id="get-gpppassword"),
        pytest.param(
            "Invoke-Kerberoast", (_e(K.CREDENTIAL_ACCESS, None, "Invoke-Kerberoast"),), id="invoke-kerberoast"
        ),
        pytest.param("Get-LSASecret", (_e(K.CREDENTIAL_ACCESS, None, "Get-Lsasecret"),), id="get-lsasecret"),
        pytest.param("Get-PassHashes", (_e(K.CREDENTIAL_ACCESS, None, "Get-Passhashes"),), id="get-passhashes"),
        pytest.param("Invoke-PowerDump", (_e(K.CREDENTIAL_ACCESS, None, "Invoke-Powerdump"),), id="invoke-powerdump"),
        pytest.param(
            "Get-VaultCredential", (_e(K.CREDENTIAL_ACCESS, None, "Get-Vaultcredential"),), id="get-vaultcredential"
        ),
        pytest.param(
            "Get-StoredCredential -Target x",
            (_e(K.CREDENTIAL_ACCESS, None, "Get-Storedcredential"),),
            id="get-storedcredential",
        ),
        pytest.param(
            "Invoke-NinjaCopy -Path C:\\Windows\\NTDS\\ntds.dit -LocalDestination C:\\x",
            (_e(K.CREDENTIAL_ACCESS, None, "Invoke-Ninjacopy"),),
            id="invoke-ninjacopy",
        ),
        pytest.param("Invoke-DCSync", (_e(K.CREDENTIAL_ACCESS, None, "Invoke-Dcsync"),), id="invoke-dcsync"),
        pytest.param("Get-Keystrokes", (_e(K.CREDENTIAL_ACCESS, None, "Get-Keystrokes"),), id="get-keystrokes"),
        pytest.param(
            "Invoke-CredentialInjection",
            (_e(K.CREDENTIAL_ACCESS, None, "Invoke-Credentialinjection"),),
            id="invoke-credentialinjection",
        ),
    ],
)
def test_system_cmdlets(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# .NET calls, methods on any object, ADSI


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "[Security.Cryptography.ProtectedData]::Unprotect($b, $null, 'CurrentUser')",
            (_e(K.CREDENTIAL_ACCESS, None, "DPAPI ProtectedData.Unprotect"),),
            id="dpapi-unprotect",
        ),
        pytest.param(
            "[Security.Cryptography.ProtectedData]::Protect($b, $null, 'CurrentUser')", (), id="dpapi-protect"
        ),
        pytest.param(
            "[System.Diagnostics.EventLog]::Delete('Security')",
            (_e(K.LOG_CLEAR, "Security", "[EventLog]::Delete"),),
            id="eventlog-delete",
        ),
        pytest.param(
            "[Diagnostics.EventLog]::Delete($n)",
            (_e(K.LOG_CLEAR, None, "[EventLog]::Delete"),),
            id="eventlog-delete-variable",
        ),
        pytest.param(
            "(New-Object System.Diagnostics.EventLog('Security')).Clear()",
            (_e(K.LOG_CLEAR, None, "EventLog.Clear()"),),
            id="eventlog-clear",
        ),
        pytest.param(
            "$l = New-Object System.Diagnostics.EventLog 'Security'; $l.Clear()",
            (_e(K.LOG_CLEAR, None, "EventLog.Clear()"),),
            id="eventlog-clear-variable",
        ),
        pytest.param(
            "[System.Diagnostics.Eventing.Reader.EventLogSession]::GlobalSession.ClearLog('Security')",
            (_e(K.LOG_CLEAR, "Security", "EventLogSession.ClearLog"),),
            id="session-clearlog",
        ),
        pytest.param(
            "$s.ClearLog('System')", (_e(K.LOG_CLEAR, "System", "EventLogSession.ClearLog"),), id="clearlog-any-object"
        ),
        pytest.param(
            "(Get-WmiObject Win32_NTEventlogFile -Filter \"LogFileName='Security'\").ClearEventlog()",
            (_e(K.LOG_CLEAR, None, "Win32_NTEventlogFile.ClearEventlog"),),
            id="wmi-cleareventlog",
        ),
        pytest.param(
            "$log.ClearEventLog('C:\\bak.evtx')",
            (_e(K.LOG_CLEAR, "C:\\bak.evtx", "Win32_NTEventlogFile.ClearEventlog"),),
            id="wmi-cleareventlog-backup",
        ),
        pytest.param(
            "$v = New-Object Windows.Security.Credentials.PasswordVault; $v.RetrieveAll()",
            (
                _e(K.CREDENTIAL_ACCESS, None, "Windows PasswordVault"),
                _e(K.CREDENTIAL_ACCESS, None, "PasswordVault.RetrieveAll"),
            ),
            id="vault-retrieveall",
        ),
        pytest.param(
            "[Windows.Security.Credentials.PasswordVault]::new().RetrieveAll()",
            (
                _e(K.CREDENTIAL_ACCESS, None, "Windows PasswordVault"),
                _e(K.CREDENTIAL_ACCESS, None, "PasswordVault.RetrieveAll"),
            ),
            id="vault-static-new",
        ),
        pytest.param(
            "$v.FindAllByResource('x')",
            (_e(K.CREDENTIAL_ACCESS, None, "PasswordVault.FindAllByResource"),),
            id="vault-findallbyresource",
        ),
        pytest.param(
            "$v.FindAllByUserName('bob')",
            (_e(K.CREDENTIAL_ACCESS, None, "PasswordVault.FindAllByUserName"),),
            id="vault-findallbyusername",
        ),
        pytest.param(
            "$c.RetrievePassword()",
            (_e(K.CREDENTIAL_ACCESS, None, "PasswordCredential.RetrievePassword"),),
            id="credential-retrievepassword",
        ),
        pytest.param(
            "$v.Retrieve('x','bob')", (_e(K.CREDENTIAL_ACCESS, None, "PasswordVault.Retrieve"),), id="vault-retrieve"
        ),
        pytest.param("$u.SetPassword('P@ss')", (_e(K.ACCOUNT_CHANGE, None, ".SetPassword()"),), id="setpassword"),
        pytest.param(
            "$u.ChangePassword('old','new')", (_e(K.ACCOUNT_CHANGE, None, ".ChangePassword()"),), id="changepassword"
        ),
        pytest.param(
            "$f.RegisterTaskDefinition('Upd', $d, 6, $null, $null, 3)",
            (_e(K.PERSISTENCE, "Upd", "Schedule.Service RegisterTaskDefinition"),),
            id="register-task-definition",
        ),
        pytest.param(
            "$f.RegisterTask('Upd', $xml, 6, $null, $null, 3)",
            (_e(K.PERSISTENCE, "Upd", "Schedule.Service RegisterTask"),),
            id="register-task-xml",
        ),
        pytest.param(
            "(Get-WmiObject Win32_OperatingSystem).Win32Shutdown(1)",
            (_e(K.POWER, None, "Win32Shutdown"),),
            id="win32shutdown",
        ),
        pytest.param(
            "$os.Win32ShutdownTracker(0, 'x', 0, 1)",
            (_e(K.POWER, None, "Win32ShutdownTracker"),),
            id="win32shutdowntracker",
        ),
        pytest.param(
            "([ADSI]'WinNT://./Administrators,group').Add('WinNT://bob')",
            (_e(K.ACCOUNT_CHANGE, "winnt://./administrators,group", "ADSI add", extra=(("member", "WinNT://bob"),)),),
            id="adsi-add",
        ),
        pytest.param(
            "([ADSI]'WinNT://./Administrators,group').Remove('WinNT://bob')",
            (
                _e(
                    K.ACCOUNT_CHANGE,
                    "winnt://./administrators,group",
                    "ADSI remove",
                    extra=(("member", "WinNT://bob"),),
                ),
            ),
            id="adsi-remove",
        ),
        pytest.param(
            "([ADSI]'WinNT://.').Create('user', 'eve')", (_e(K.ACCOUNT_CHANGE, "eve", "ADSI create"),), id="adsi-create"
        ),
        pytest.param(
            "([ADSI]'WinNT://.').Delete('user', 'eve')", (_e(K.ACCOUNT_CHANGE, "eve", "ADSI delete"),), id="adsi-delete"
        ),
        pytest.param(
            "([ADSI]'WinNT://./bob,user').SetPassword('x')",
            (_e(K.ACCOUNT_CHANGE, "winnt://./bob,user", "ADSI setpassword"),),
            id="adsi-setpassword",
        ),
        pytest.param(
            "([ADSI]'WinNT://./bob,user').SetInfo()",
            (_e(K.ACCOUNT_CHANGE, "winnt://./bob,user", "ADSI setinfo"),),
            id="adsi-setinfo",
        ),
        pytest.param(
            "([ADSI]'WinNT://./bob,user').Invoke('SetPassword', 'x')",
            (_e(K.ACCOUNT_CHANGE, "winnt://./bob,user", "ADSI setpassword"),),
            id="adsi-invoke-setpassword",
        ),
        pytest.param(
            "([ADSI]'WinNT://./Administrators,group').Invoke('Add', 'WinNT://bob')",
            (_e(K.ACCOUNT_CHANGE, "winnt://./administrators,group", "ADSI add", extra=(("member", "WinNT://bob"),)),),
            id="adsi-invoke-add",
        ),
        pytest.param("([ADSI]'WinNT://./Administrators,group').Invoke('Members')", (), id="adsi-invoke-members"),
        pytest.param("([ADSI]'WinNT://./bob,user').Get('FullName')", (), id="adsi-get"),
        pytest.param(
            "([ADSI]'LDAP://CN=bob,DC=corp').Put('description','x')",
            (_e(K.ACCOUNT_CHANGE, "ldap://cn=bob,dc=corp", "ADSI put"),),
            id="adsi-put",
        ),
        pytest.param(
            "([ADSI]'LDAP://CN=bob,DC=corp').MoveHere('x','y')",
            (_e(K.ACCOUNT_CHANGE, "ldap://cn=bob,dc=corp", "ADSI movehere"),),
            id="adsi-movehere",
        ),
        pytest.param(
            "([ADSI]'LDAP://OU=Staff,DC=corp').DeleteTree()",
            (_e(K.ACCOUNT_CHANGE, "ldap://ou=staff,dc=corp", "ADSI deletetree"),),
            id="adsi-deletetree",
        ),
        pytest.param(
            "([ADSI]'LDAP://CN=bob,DC=corp').Rename('CN=eve')",
            (_e(K.ACCOUNT_CHANGE, "ldap://cn=bob,dc=corp", "ADSI rename"),),
            id="adsi-rename",
        ),
        pytest.param(
            "$de = [ADSI]'LDAP://CN=bob,DC=corp'; $de.CommitChanges()",
            (_e(K.ACCOUNT_CHANGE, "ldap://cn=bob,dc=corp", "ADSI commitchanges"),),
            id="adsi-commitchanges",
        ),
        pytest.param(
            "([ADSI]'LDAP://CN=bob,DC=corp').PutEx(1, 'description', 0)",
            (_e(K.ACCOUNT_CHANGE, "ldap://cn=bob,dc=corp", "ADSI putex"),),
            id="adsi-putex",
        ),
        pytest.param(
            "([ADSI]'WinNT://./bob,user').InvokeSet('SetPassword', 'x')",
            (_e(K.ACCOUNT_CHANGE, "winnt://./bob,user", "ADSI setpassword"),),
            id="adsi-invokeset",
        ),
        pytest.param(
            "([ADSI]'WinNT://./bob,user').ChangePassword('a','b')",
            (_e(K.ACCOUNT_CHANGE, "winnt://./bob,user", "ADSI changepassword"),),
            id="adsi-changepassword",
        ),
    ],
)
def test_dotnet_methods_and_adsi(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# Verdicts where the branch exists to make one


@requirement("S-RULE-04")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("net user bob P@ss /add", ("account-change", "deny"), id="net-user-add"),
        pytest.param("net user bob", None, id="net-user-show"),
        pytest.param("net share data=C:\\Data /grant:everyone,full", ("network-change", "ask"), id="net-share-grant"),
        pytest.param("net share data=C:\\Data /delete", None, id="net-share-delete"),
        pytest.param("net stop WinDefend", ("disable-defender", "deny"), id="net-stop-defender"),
        pytest.param("net stop Spooler", None, id="net-stop-spooler"),
        pytest.param(
            "schtasks /create /tn Upd /tr C:\\x.exe /sc onlogon", ("persistence-autostart", "ask"), id="schtasks-create"
        ),
        pytest.param("schtasks /query /tn Upd", None, id="schtasks-query"),
        pytest.param("at 23:00 C:\\x.exe", ("persistence-autostart", "ask"), id="at-time"),
        pytest.param("vssadmin delete shadows /all /quiet", ("delete-backups", "deny"), id="vssadmin-delete"),
        pytest.param("vssadmin list shadows", None, id="vssadmin-list"),
        pytest.param("wevtutil cl Security", ("log-clear", "deny"), id="wevtutil-cl"),
        pytest.param("wevtutil sl Security /e:false", ("security-weakening", "deny"), id="wevtutil-disable"),
        pytest.param("wevtutil sl Security /ms:65536", ("log-clear", "deny"), id="wevtutil-shrink"),
        pytest.param("wevtutil sl Security /maxsize:1048576", None, id="wevtutil-one-mib"),
        pytest.param("shutdown /s /t 0", ("shutdown-restart", "deny"), id="shutdown-s"),
        pytest.param("shutdown /a", None, id="shutdown-abort"),
        pytest.param("cmdkey /list", ("credential-access", "deny"), id="cmdkey-list"),
        pytest.param("procdump -ma lsass.exe C:\\Temp\\l.dmp", ("credential-access", "deny"), id="procdump-lsass"),
        pytest.param("procdump -ma notepad.exe C:\\Temp\\n.dmp", None, id="procdump-notepad"),
        pytest.param("windbg -pn notepad.exe", ("force-kill", "ask"), id="windbg-notepad"),
        pytest.param("ntsd -c q -pn explorer.exe", ("kill-desktop-shell", "ask"), id="ntsd-quit-explorer"),
        pytest.param("diskpart /s wipe.txt", ("format-disk", "deny"), id="diskpart"),
        pytest.param(
            'wmic /namespace:\\\\root\\subscription path __EventFilter create Name="x"',
            ("persistence-hijack", "deny"),
            id="wmic-event-filter",
        ),
        pytest.param("wmic process delete", ("kill-all", "deny"), id="wmic-kill-all"),
        pytest.param(
            'wmic process where name="lsass.exe" delete', ("kill-critical-process", "deny"), id="wmic-kill-lsass"
        ),
        pytest.param("wmic process where processid=624 call terminate", ("force-kill", "ask"), id="wmic-kill-pid"),
        pytest.param('wmic service where name="WinDefend" call changestartmode auto', None, id="wmic-service-auto"),
        pytest.param(
            'wmic service where name="WinDefend" call changestartmode disabled',
            ("disable-defender", "deny"),
            id="wmic-service-disable",
        ),
        pytest.param("Limit-EventLog -LogName Security -MaximumSize 64KB", ("log-clear", "deny"), id="limit-64kb"),
        pytest.param("Limit-EventLog -LogName Security -MaximumSize 1MB", None, id="limit-1mb"),
        pytest.param("New-LocalUser -Name bob -Password $p", ("account-change", "deny"), id="new-localuser"),
        pytest.param(
            "New-Service -Name Upd -BinaryPathName C:\\x.exe", ("persistence-autostart", "ask"), id="new-service"
        ),
        pytest.param(
            "Set-WmiInstance -Class __EventFilter -Namespace root\\subscription -Arguments @{Name='x'}",
            ("persistence-hijack", "deny"),
            id="set-wmiinstance-filter",
        ),
        pytest.param("Set-WmiInstance -Class Win32_Environment -Arguments @{Name='x'}", None, id="set-wmiinstance-env"),
        pytest.param("Format-Volume -DriveLetter D", ("format-disk", "deny"), id="format-volume"),
        pytest.param("Restart-Computer -Force", ("shutdown-restart", "deny"), id="restart-computer"),
        pytest.param("Disable-ComputerRestore -Drive C:\\", ("delete-backups", "deny"), id="disable-computerrestore"),
        pytest.param(
            "New-Object -TypeName System.IO.StreamWriter -ArgumentList C:\\Windows\\win.ini",
            ("protected-place-write", "deny"),
            id="new-object-streamwriter",
        ),
        pytest.param("New-Object IO.FileStream", ("dynamic-command", "ask"), id="new-object-filestream-no-args"),
        pytest.param("Invoke-Mimikatz -DumpCreds", ("credential-access", "deny"), id="invoke-mimikatz"),
        pytest.param(
            "$v = New-Object Windows.Security.Credentials.PasswordVault; $v.RetrieveAll()",
            ("credential-access", "deny"),
            id="vault-retrieveall",
        ),
        pytest.param(
            "([ADSI]'WinNT://./Administrators,group').Add('WinNT://bob')", ("account-change", "deny"), id="adsi-add"
        ),
        pytest.param("([ADSI]'WinNT://./Administrators,group').Invoke('Members')", None, id="adsi-invoke-members"),
    ],
)
def test_verdicts(command: str, expected: tuple[str, str] | None) -> None:
    assert _verdict(command) == expected


# ---------------------------------------------------------------------------------------
# wmi_kill: the filter of a Win32_Process terminate, as WQL or wmic words


@requirement("S-RULE-74")
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Name='lsass.exe'", _e(K.KILL_FORCED, "lsass.exe", "Win32_Process terminate"), id="name-eq"),
        pytest.param("name like 'note%'", _e(K.KILL_FORCED, "note*", "Win32_Process terminate"), id="name-like"),
        pytest.param(
            '(Name = "MsMpEng.exe")', _e(K.KILL_FORCED, "MsMpEng.exe", "Win32_Process terminate"), id="name-paren"
        ),
        pytest.param("ProcessId=624", _e(K.KILL_FORCED, "pid:624", "Win32_Process terminate"), id="processid"),
        pytest.param("Handle = '4'", _e(K.KILL_FORCED, "pid:4", "Win32_Process terminate"), id="handle"),
        pytest.param(
            "ProcessId=624 and Name='x.exe'", _e(K.KILL_FORCED, "x.exe", "Win32_Process terminate"), id="name-wins"
        ),
        pytest.param(
            "where CommandLine like '%evil%'",
            _e(K.KILL_FORCED, None, "Win32_Process terminate (filtered)"),
            id="other-where",
        ),
        pytest.param(  # the gateway's command line holds `winmcp-gateway` (S-RULE-88)
            "where CommandLine like '%winmcp%'",
            _e(K.KILL_FORCED, "winmcp-gateway", "Win32_Process terminate (by path or command line)"),
            id="command-line-names-a-protected-process",
        ),
        pytest.param(
            "-Filter \"ExecutablePath = 'C:\\Windows\\System32\\lsass.exe'\"",
            _e(K.KILL_FORCED, "lsass", "Win32_Process terminate (by path or command line)"),
            id="path-names-a-protected-process",
        ),
        pytest.param(
            "where CommandLine like '%'",
            _e(K.KILL_ALL, None, "Win32_Process terminate (every process)"),
            id="command-line-like-anything",
        ),
        pytest.param(
            "-Filter \"ExecutablePath like 'C:%'\"",
            _e(K.KILL_FORCED, None, "Win32_Process terminate (filtered)"),
            id="other-filter",
        ),
        pytest.param("", _e(K.KILL_ALL, None, "Win32_Process terminate (every process)"), id="nothing"),
    ],
)
def test_wmi_kill_reads_the_filter(text: str, expected: Effect) -> None:
    assert wmi_kill(text) == expected


# ---------------------------------------------------------------------------------------
# adsi_effects and dotnet_system on the operations the analyser names


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("op", "expected"),
    [
        pytest.param(
            Operation("dotnet", "adsi:winnt://./administrators,group.add", args=("WinNT://bob", "WinNT://eve")),
            (
                _e(
                    K.ACCOUNT_CHANGE,
                    "winnt://./administrators,group",
                    "ADSI add",
                    extra=(("member", "WinNT://bob"), ("member", "WinNT://eve")),
                ),
            ),
            id="add-two-members",
        ),
        pytest.param(
            Operation("dotnet", "adsi:winnt://./administrators,group.remove", args=(None,)),
            (_e(K.ACCOUNT_CHANGE, "winnt://./administrators,group", "ADSI remove", extra=(("member", ""),)),),
            id="remove-unknown-member",
        ),
        pytest.param(
            Operation("dotnet", "adsi:winnt://..create", args=("'user'",)),
            (_e(K.ACCOUNT_CHANGE, "winnt://.", "ADSI create"),),
            id="create-without-name-is-the-container",
        ),
        pytest.param(
            Operation("dotnet", "adsi:winnt://./bob,user.invoke", args=("'SetPassword'", "'x'")),
            (_e(K.ACCOUNT_CHANGE, "winnt://./bob,user", "ADSI setpassword"),),
            id="invoke-unquotes-the-method",
        ),
        pytest.param(
            Operation("dotnet", "adsi:winnt://./bob,user.invoke"),
            (),
            id="invoke-without-method",
        ),
        pytest.param(
            Operation("dotnet", "adsi:winnt://./bob,user.invokeget", args=("'FullName'",)),
            (),
            id="invokeget-reads",
        ),
        pytest.param(Operation("dotnet", "adsi:winnt://./bob"), (), id="no-method"),
        pytest.param(Operation("dotnet", "directoryservices.directoryentry.setinfo"), (), id="not-adsi"),
    ],
)
def test_adsi_effects(op: Operation, expected: tuple[Effect, ...]) -> None:
    assert adsi_effects(op) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("name", "expected"),
    [
        pytest.param("windows.security.credentials.passwordvault::new", True, id="vault-new"),
        pytest.param("system.windows.security.credentials.passwordvault.retrieveall", True, id="system-prefix"),
        pytest.param("windows.security.credentials.passwordcredential::new", False, id="credential-object"),
        pytest.param("system.security.cryptography.protecteddata::protect", False, id="other-type"),
    ],
)
def test_dotnet_system_password_vault(name: str, expected: bool) -> None:
    found = dotnet_system(Operation("dotnet", name))
    assert found == ((_e(K.CREDENTIAL_ACCESS, None, "Windows PasswordVault"),) if expected else ())
