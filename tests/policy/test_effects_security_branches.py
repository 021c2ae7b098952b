"""Each branch of the security effects (`policy/rules/effects_security.py`) as whole effects; found by mutation testing.

Rows are commands as the model would send them to the PowerShell tool, with every effect the gateway reads
from them: kind, target as written, the phrase a reason keys on (`defender`, `firewall-rule`, `remote-access`,
…) and the extra facts (the command and the setting weakened). The corpus tests check only the verdict, which
another rule often reaches anyway; these rows pin what each program and cmdlet does on Windows:
`sc config WinDefend start= auto` turns Defender back on, `bcdedit /set testsigning off` restores driver
signing, `Set-MpPreference -DisableRealtimeMonitoring 0` keeps protection on, a firewall rule group named
by `-DisplayGroup` is one of Windows' own allow rules, `Set-ExecutionPolicy -Scope Process` lasts one
session. Negative rows (a read-only verb, a value that turns protection on, another service or store) matter
as much as positive ones.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_common import effect
from policy.rules.effects_security import (
    SECURITY_SERVICES,
    SERVICES_NOT_KNOWN,
    WEAKENED,
    dotnet_security,
    security_software_removed,
    service_name,
    trust_store,
    wmi_service_change,
    wsman_setting,
)
from policy.rules.shell.ops import Effect, EffectKind, Operation, Value
from tests._requirements import requirement
from tests.policy.verdicts import ps as _verdict
from tests.policy.verdicts import ps_effects as _effects

K = EffectKind


def _w(what: str, target: Value, command: str, setting: str = "") -> Effect:
    """The SECURITY_WEAKENING a reason quotes: what is weakened, of which target, by which command."""
    extra = (("command", command),) + ((("setting", setting),) if setting else ())
    return effect(K.SECURITY_WEAKENING, target, what, extra=extra)


def _boot(command: str) -> Effect:
    return effect(K.DISK_DESTROY, None, "boot", extra=(("command", command),))


def _op(name: str, text: str, *args: str, shell: str = "powershell", piped_from: str | None = None) -> Operation:
    return Operation(shell, name, (), args, text, 0, piped_from)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------
# sc.exe: only the security services weaken; create/config/failure of any other service persist


@requirement("S-RULE-37")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("sc.exe stop WinDefend", (_w("defender", "WinDefend", "sc stop"),), id="stop-windefend"),
        pytest.param(
            r"sc.exe \\srv01 stop WinDefend", (_w("defender", "WinDefend", "sc stop"),), id="remote-server-prefix"
        ),
        pytest.param("sc.exe delete Sense", (_w("defender", "Sense", "sc delete"),), id="delete-sense"),
        pytest.param("sc.exe pause mpssvc", (_w("firewall", "mpssvc", "sc pause"),), id="pause-firewall"),
        pytest.param("sc.exe stop bfe", (_w("firewall", "bfe", "sc stop"),), id="stop-bfe"),
        pytest.param("sc.exe stop mpssvc.exe", (_w("firewall", "mpssvc.exe", "sc stop"),), id="exe-suffix"),
        pytest.param("sc.exe stop wdnissvc", (_w("defender", "wdnissvc", "sc stop"),), id="stop-nis"),
        pytest.param("sc.exe stop mdcoresvc", (_w("defender", "mdcoresvc", "sc stop"),), id="stop-mdcore"),
        pytest.param("sc.exe stop wscsvc", (_w("security-center", "wscsvc", "sc stop"),), id="stop-wscsvc"),
        pytest.param("sc.exe stop EventLog", (_w("event-log", "EventLog", "sc stop"),), id="stop-eventlog"),
        pytest.param("sc.exe stop Sysmon64", (_w("monitoring", "Sysmon64", "sc stop"),), id="stop-sysmon"),
        pytest.param("sc.exe stop UsoSvc", (_w("updates", "UsoSvc", "sc stop"),), id="stop-usosvc"),
        pytest.param("sc.exe stop WaaSMedicSvc", (_w("updates", "WaaSMedicSvc", "sc stop"),), id="stop-medic"),
        pytest.param(
            "sc.exe config windefend start= disabled",
            (_w("defender", "windefend", "sc config"),),
            id="config-disabled",
        ),
        pytest.param(
            "sc.exe config WinDefend start= demand", (_w("defender", "WinDefend", "sc config"),), id="config-demand"
        ),
        pytest.param(
            r"sc.exe config WinDefend binpath= C:\Users\Public\evil.exe",
            (_w("defender", "WinDefend", "sc config"),),
            id="config-binpath-repointed",
        ),
        pytest.param(
            'sc.exe config "SecurityHealthService" start= disabled',
            (_w("security-center", "SecurityHealthService", "sc config"),),
            id="config-quoted-name",
        ),
        pytest.param(
            'sc.exe failure WinDefend reset= 0 actions= ""',
            (_w("defender", "WinDefend", "sc failure"),),
            id="failure-security",
        ),
        pytest.param(
            "sc.exe sdset wuauserv D:(D;;RPWP;;;WD)", (_w("updates", "wuauserv", "sc sdset"),), id="sdset-security"
        ),
        pytest.param(
            "sc.exe sdset Spooler D:(A;;CCLCSWRPWPDTLOCRRC;;;WD)",
            (_w("service-acl", "Spooler", "sc sdset"),),
            id="sdset-other-service",
        ),
        # Turning Defender back on, or starting/querying it, weakens nothing.
        pytest.param("sc.exe config WinDefend start= auto", (), id="config-auto"),
        pytest.param("sc.exe config WinDefend start= delayed-auto", (), id="config-delayed-auto"),
        pytest.param("sc.exe start WinDefend", (), id="start"),
        pytest.param("sc.exe query WinDefend", (), id="query"),
        pytest.param(r"sc.exe \\srv01 query WinDefend", (), id="remote-query"),
        pytest.param("sc.exe stop Spooler", (), id="stop-other-service"),
        pytest.param("sc.exe stop", (), id="no-service"),
        pytest.param(
            r'sc.exe create updater binPath= "C:\Users\Public\e.exe" start= auto',
            (
                effect(
                    K.PERSISTENCE,
                    "updater",
                    "sc create",
                    extra=(
                        ("command", "c:\\users\\public\\e.exe start= auto"),
                        ("runs_later", "C:\\Users\\Public\\e.exe"),
                    ),
                ),
            ),
            id="create-with-binpath",
        ),
        pytest.param(
            "sc.exe create updater type= own", (effect(K.PERSISTENCE, "updater", "sc create"),), id="create-no-binpath"
        ),
        pytest.param(
            r"sc.exe config Spooler binpath= C:\x\y.exe",
            (
                effect(
                    K.PERSISTENCE,
                    "Spooler",
                    "sc config",
                    extra=(("command", "c:\\x\\y.exe"), ("runs_later", "C:\\x\\y.exe")),
                ),
            ),
            id="config-other-binpath",
        ),
        pytest.param(
            "sc.exe config Spooler start= disabled",
            (effect(K.PERSISTENCE, "Spooler", "sc config"),),
            id="config-other-start",
        ),
        pytest.param(
            r'sc.exe failure Spooler command= "C:\x.exe arg" actions= run/1000',
            (
                effect(
                    K.PERSISTENCE,
                    "Spooler",
                    "sc failure",
                    extra=(("command", "c:\\x.exe arg actions= run/1000"), ("runs_later", "C:\\x.exe arg")),
                ),
            ),
            id="failure-command",
        ),
    ],
)
def test_sc(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# auditpol and bcdedit


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("auditpol /clear /y", (_w("audit-policy", None, "auditpol /clear"),), id="clear"),
        pytest.param("auditpol /remove /allusers", (_w("audit-policy", None, "auditpol /remove"),), id="remove"),
        pytest.param(
            r"auditpol /restore /file:C:\policy.csv", (_w("audit-policy", None, "auditpol /restore"),), id="restore"
        ),
        pytest.param(
            'auditpol /clear /category:"Logon/Logoff"',
            (_w("audit-policy", "Logon/Logoff", "auditpol /clear"),),
            id="clear-category",
        ),
        pytest.param(
            'auditpol /set /category:"Logon/Logoff" /success:disable /failure:disable',
            (_w("audit-policy", "Logon/Logoff", "auditpol /set /…:disable"),),
            id="set-category-disable",
        ),
        pytest.param(
            'auditpol /set /subcategory:"Process Creation" /success:disable',
            (_w("audit-policy", "Process Creation", "auditpol /set /…:disable"),),
            id="set-subcategory-success",
        ),
        pytest.param(
            'auditpol /set /subcategory:"Process Creation" /success:enable /failure:disable',
            (_w("audit-policy", "Process Creation", "auditpol /set /…:disable"),),
            id="set-failure-only",
        ),
        pytest.param('auditpol /set /subcategory:"Process Creation" /success:enable /failure:enable', (), id="enable"),
        pytest.param("auditpol /get /category:*", (), id="get"),
        pytest.param('auditpol /list /subcategory:"Logon/Logoff" /failure:disable', (), id="disable-without-set"),
        pytest.param('bcdedit /delete "{current}"', (_boot("bcdedit /delete"),), id="bcd-delete"),
        pytest.param('bcdedit /deletevalue "{default}" recoveryenabled', (_boot("bcdedit /delete"),), id="deletevalue"),
        pytest.param(
            'bcdedit /set "{default}" recoveryenabled No',
            (_boot("bcdedit /set {default} recoveryenabled no"),),
            id="recovery-no",
        ),
        pytest.param(
            'bcdedit /set "{default}" recoveryenabled 0',
            (_boot("bcdedit /set {default} recoveryenabled 0"),),
            id="recovery-0",
        ),
        pytest.param(
            'bcdedit /set "{default}" bootstatuspolicy ignoreallfailures',
            (_boot("bcdedit /set {default} bootstatuspolicy ignoreallfailures"),),
            id="ignore-all-failures",
        ),
        pytest.param('bcdedit /set "{default}" recoveryenabled yes', (), id="recovery-yes"),
        pytest.param('bcdedit /set "{default}" bootstatuspolicy displayallfailures', (), id="display-failures"),
        pytest.param("bcdedit /set testsigning on", (_w("driver-signing", None, "bcdedit /set"),), id="testsigning"),
        pytest.param(
            "bcdedit /set nointegritychecks yes", (_w("driver-signing", None, "bcdedit /set"),), id="nointegrity"
        ),
        pytest.param(
            "bcdedit /set loadoptions DDISABLE_INTEGRITY_CHECKS",
            (_w("driver-signing", None, "bcdedit /set"),),
            id="loadoptions",
        ),
        pytest.param("bcdedit /set testsigning off", (), id="testsigning-off"),
        pytest.param(
            'bcdedit /set "{current}" safeboot minimal',
            (_w("safe-boot", None, "bcdedit /set safeboot"),),
            id="safeboot",
        ),
        pytest.param(
            "bcdedit /set hypervisorlaunchtype off",
            (_w("virtualization-security", None, "bcdedit /set hypervisorlaunchtype off"),),
            id="hypervisor-off",
        ),
        pytest.param(
            "bcdedit /set vsmlaunchtype off",
            (_w("virtualization-security", None, "bcdedit /set hypervisorlaunchtype off"),),
            id="vsm-off",
        ),
        pytest.param("bcdedit /set hypervisorlaunchtype auto", (), id="hypervisor-auto"),
        pytest.param(
            'bcdedit /set "{current}" debug on', (_w("kernel-debug", None, "bcdedit /set debug on"),), id="debug-on"
        ),
        pytest.param('bcdedit /set "{current}" debug off', (), id="debug-off"),
        pytest.param(
            'bcdedit /set "{current}" nx AlwaysOff', (_w("dep", None, "bcdedit /set nx AlwaysOff"),), id="nx-off"
        ),
        pytest.param('bcdedit /set "{current}" nx OptIn', (), id="nx-optin"),
        pytest.param('bcdedit /set "{current}" description "Windows 11"', (), id="description"),
        pytest.param("bcdedit /enum", (), id="enum"),
        pytest.param("bootsect /nt60 SYS /mbr", (_boot("bootsect"),), id="bootsect"),
    ],
)
def test_auditpol_and_bcdedit(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# netsh


@requirement("S-RULE-65")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "netsh advfirewall reset", (_w("firewall-rule", None, "netsh advfirewall reset"),), id="advfw-reset"
        ),
        pytest.param(
            'netsh advfirewall firewall delete rule name="Block Telnet"',
            (_w("firewall-rule", None, "netsh advfirewall firewall delete rule"),),
            id="delete-rule",
        ),
        pytest.param(
            'netsh advfirewall firewall set rule name="Block SMB" new action=allow',
            (_w("firewall-rule", None, "netsh advfirewall firewall set rule"),),
            id="set-rule-allow",
        ),
        pytest.param(
            'netsh advfirewall firewall set rule name="Block SMB" new enable=no',
            (_w("firewall-rule", None, "netsh advfirewall firewall set rule"),),
            id="set-rule-disable",
        ),
        # Windows' own groups are allow rules: switching one off closes ports.
        pytest.param(
            'netsh advfirewall firewall set rule group="File and Printer Sharing" new enable=no',
            (),
            id="set-group-disable",
        ),
        pytest.param(
            'netsh advfirewall firewall set rule group="File and Printer Sharing" new enable=yes',
            (),
            id="set-other-group-enable",
        ),
        pytest.param('netsh advfirewall firewall set rule name="Block SMB" new action=block', (), id="set-rule-block"),
        pytest.param(
            'netsh advfirewall firewall set rule group="remote desktop" new enable=yes',
            (_w("remote-access", "remote desktop", "netsh advfirewall firewall set rule enable=yes"),),
            id="enable-rdp-group",
        ),
        pytest.param(
            'netsh advfirewall firewall set rule name="Windows Remote Management (HTTP-In)" new enable=yes',
            (
                _w(
                    "remote-access",
                    "windows remote management (http-in)",
                    "netsh advfirewall firewall set rule enable=yes",
                ),
            ),
            id="enable-winrm-rule",
        ),
        pytest.param(
            "netsh advfirewall set allprofiles state off",
            (_w("firewall", "allprofiles", "netsh advfirewall set … state off"),),
            id="all-profiles-off",
        ),
        pytest.param(
            "netsh advfirewall set domainprofile state off",
            (_w("firewall", "domainprofile", "netsh advfirewall set … state off"),),
            id="domain-profile-off",
        ),
        pytest.param("netsh advfirewall set allprofiles state on", (), id="profiles-on"),
        pytest.param(
            "netsh advfirewall set currentprofile firewallpolicy allowinbound,allowoutbound",
            (_w("firewall", None, "netsh advfirewall firewallpolicy allowinbound"),),
            id="policy-allowinbound",
        ),
        pytest.param(
            "netsh advfirewall set currentprofile firewallpolicy blockinbound,allowoutbound", (), id="policy-block"
        ),
        pytest.param(
            "netsh firewall set opmode disable",
            (_w("firewall", None, "netsh firewall set opmode disable"),),
            id="opmode-disable",
        ),
        pytest.param(
            "netsh firewall set opmode mode=disable",
            (_w("firewall", None, "netsh firewall set opmode disable"),),
            id="opmode-mode-disable",
        ),
        pytest.param("netsh firewall set opmode enable", (), id="opmode-enable"),
        pytest.param(
            'netsh advfirewall firewall add rule name="RDP" dir=in action=allow protocol=TCP localport=3389',
            (_w("firewall-rule", None, "netsh advfirewall firewall add rule action=allow"),),
            id="add-rule-allow",
        ),
        pytest.param(
            'netsh advfirewall firewall add rule name="x" dir=in action = allow',
            (_w("firewall-rule", None, "netsh advfirewall firewall add rule action=allow"),),
            id="add-rule-allow-spaced",
        ),
        pytest.param(
            'netsh advfirewall firewall add rule name="Block" dir=in action=block protocol=TCP localport=445',
            (),
            id="add-rule-block",
        ),
        pytest.param(
            r"netsh firewall add allowedprogram C:\Tools\srv.exe Srv ENABLE",
            (_w("firewall-rule", None, "netsh firewall add"),),
            id="old-allowedprogram",
        ),
        pytest.param(
            "netsh firewall add portopening TCP 4444 Backdoor",
            (_w("firewall-rule", None, "netsh firewall add"),),
            id="old-portopening",
        ),
        pytest.param(
            'netsh wlan show profile name="Home" key=clear',
            (effect(K.CREDENTIAL_ACCESS, None, "netsh wlan key=clear (Wi-Fi keys)"),),
            id="wlan-key-clear",
        ),
        pytest.param(
            r"netsh wlan export profile key=clear folder=C:\Temp",
            (effect(K.CREDENTIAL_ACCESS, None, "netsh wlan key=clear (Wi-Fi keys)"),),
            id="wlan-export-key-clear",
        ),
        pytest.param('netsh wlan show profile name="Home"', (), id="wlan-show-no-key"),
        pytest.param("netsh wlan show profiles", (), id="wlan-list"),
        pytest.param(
            r"netsh add helper C:\Users\Public\h.dll",
            (effect(K.PERSISTENCE, None, "netsh add helper", extra=(("rule", "persistence-hijack"),)),),
            id="add-helper",
        ),
        pytest.param("netsh advfirewall show allprofiles", (), id="show-profiles"),
        pytest.param("netsh interface show interface", (), id="show-interfaces"),
    ],
)
def test_netsh(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# Defender: MpCmdRun, dism, Set-/Add-MpPreference, Windows features


def _mp(setting: str, target: Value = None, command: str = "Set-MpPreference") -> Effect:
    return _w("defender", setting if target is None else target, command, setting)


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r'& "C:\Program Files\Windows Defender\MpCmdRun.exe" -RemoveDefinitions -All',
            (
                effect(K.EXECUTE, r"C:\Program Files\Windows Defender\MpCmdRun.exe", "started from its path"),
                _w("defender", None, "MpCmdRun -RemoveDefinitions"),
            ),
            id="mpcmdrun-remove-definitions",
        ),
        pytest.param("MpCmdRun.exe -Scan -ScanType 1", (), id="mpcmdrun-scan"),
        pytest.param(
            "dism /online /disable-feature /featurename:Windows-Defender /remove",
            (
                _w("defender", None, "dism /disable-feature Windows-Defender"),
                _w("security-software", "Defender", "dism (uninstall)"),
            ),
            id="dism-disable-defender",
        ),
        pytest.param(
            "dism /online /enable-feature /featurename:SMB1Protocol /all",
            (_w("smb1", None, "dism /enable-feature SMB1Protocol"),),
            id="dism-enable-smb1",
        ),
        pytest.param("dism /online /disable-feature /featurename:SMB1Protocol", (), id="dism-disable-smb1"),
        pytest.param("dism /online /enable-feature /featurename:NetFx3", (), id="dism-enable-other"),
        pytest.param("dism /online /get-features", (), id="dism-list"),
        pytest.param(
            "Set-MpPreference -DisableRealtimeMonitoring $true", (_mp("disablerealtimemonitoring"),), id="drtm-true"
        ),
        pytest.param(
            "Set-MpPreference -DisableRealtimeMonitoring:$true", (_mp("disablerealtimemonitoring"),), id="drtm-colon"
        ),
        pytest.param(
            "Set-MpPreference -DisableRealtimeMonitoring", (_mp("disablerealtimemonitoring"),), id="drtm-bare"
        ),
        pytest.param(
            "Set-MpPreference -DisableRealtimeMonitoring $v", (_mp("disablerealtimemonitoring"),), id="drtm-unknown"
        ),
        pytest.param("Set-MpPreference -DisableRealtimeMonitoring $false", (), id="drtm-false"),
        pytest.param("Set-MpPreference -DisableRealtimeMonitoring 0", (), id="drtm-zero"),
        pytest.param("Set-MpPreference -DisableRealtimeMonitoring False", (), id="drtm-word-false"),
        pytest.param("Set-MpPreference -drtm $true", (_mp("disablerealtimemonitoring"),), id="alias-drtm"),
        pytest.param(
            "Set-MpPreference -dbm 1 -dioavp 1 -dscrptsc 1 -dips 1 -dbaf 1",
            (
                _mp("disablebehaviormonitoring"),
                _mp("disableioavprotection"),
                _mp("disablescriptscanning"),
                _mp("disableintrusionpreventionsystem"),
                _mp("disableblockatfirstseen"),
            ),
            id="aliases",
        ),
        pytest.param("Set-MpPreference -MAPSReporting 0", (_mp("mapsreporting"),), id="maps-0"),
        pytest.param("Set-MpPreference -MAPSReporting Disabled", (_mp("mapsreporting"),), id="maps-disabled"),
        pytest.param("Set-MpPreference -MAPSReporting Advanced", (), id="maps-advanced"),
        pytest.param("Set-MpPreference -SubmitSamplesConsent 2", (_mp("submitsamplesconsent"),), id="samples-2"),
        pytest.param(
            "Set-MpPreference -SubmitSamplesConsent NeverSend", (_mp("submitsamplesconsent"),), id="samples-never"
        ),
        pytest.param("Set-MpPreference -SubmitSamplesConsent 1", (), id="samples-safe"),
        pytest.param("Set-MpPreference -PUAProtection 0", (_mp("puaprotection"),), id="pua-0"),
        pytest.param("Set-MpPreference -PUAProtection $v", (_mp("puaprotection"),), id="pua-unknown"),
        pytest.param("Set-MpPreference -PUAProtection Enabled", (), id="pua-enabled"),
        pytest.param(
            "Set-MpPreference -EnableControlledFolderAccess Disabled",
            (_mp("enablecontrolledfolderaccess"),),
            id="cfa-disabled",
        ),
        pytest.param("Set-MpPreference -EnableControlledFolderAccess Enabled", (), id="cfa-enabled"),
        pytest.param("Set-MpPreference -EnableNetworkProtection 0", (_mp("enablenetworkprotection"),), id="np-0"),
        pytest.param("Set-MpPreference -CloudBlockLevel 0", (_mp("cloudblocklevel"),), id="cloud-0"),
        pytest.param("Set-MpPreference -CloudBlockLevel Default", (_mp("cloudblocklevel"),), id="cloud-default"),
        pytest.param("Set-MpPreference -CloudBlockLevel High", (), id="cloud-high"),
        pytest.param(
            "Set-MpPreference -AttackSurfaceReductionRules_Ids 9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2"
            " -AttackSurfaceReductionRules_Actions Disabled",
            (_mp("attacksurfacereductionrules_actions"),),
            id="asr-disabled",
        ),
        pytest.param(
            "Set-MpPreference -AttackSurfaceReductionRules_Ids 9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2"
            " -AttackSurfaceReductionRules_Actions Enabled",
            (),
            id="asr-enabled",
        ),
        pytest.param(
            "Set-MpPreference -HighThreatDefaultAction Allow", (_mp("highthreatdefaultaction"),), id="action-allow"
        ),
        pytest.param(
            "Set-MpPreference -SevereThreatDefaultAction 6", (_mp("severethreatdefaultaction"),), id="action-6"
        ),
        pytest.param(
            "Set-MpPreference -LowThreatDefaultAction NoAction", (_mp("lowthreatdefaultaction"),), id="action-none"
        ),
        pytest.param(
            "Set-MpPreference -ModerateThreatDefaultAction 9", (_mp("moderatethreatdefaultaction"),), id="action-9"
        ),
        pytest.param("Set-MpPreference -HighThreatDefaultAction Quarantine", (), id="action-quarantine"),
        pytest.param("Set-MpPreference -HighThreatDefaultAction 2", (), id="action-2-quarantine"),
        pytest.param(
            r"Add-MpPreference -ExclusionPath C:\Users\Public",
            (_mp("exclusionpath", "C:\\Users\\Public", "Add-MpPreference"),),
            id="exclusion-path",
        ),
        pytest.param(
            "Add-MpPreference -ExclusionProcess evil.exe",
            (_mp("exclusionprocess", "evil.exe", "Add-MpPreference"),),
            id="exclusion-process",
        ),
        pytest.param(
            "Set-MpPreference -ExclusionExtension .ps1",
            (_mp("exclusionextension", ".ps1"),),
            id="exclusion-extension-set",
        ),
        pytest.param(
            r"Add-MpPreference -AttackSurfaceReductionOnlyExclusions C:\tools",
            (_mp("attacksurfacereductiononlyexclusions", "C:\\tools", "Add-MpPreference"),),
            id="asr-exclusion",
        ),
        pytest.param(
            r"Add-MpPreference -ControlledFolderAccessAllowedApplications C:\tools\x.exe",
            (_mp("controlledfolderaccessallowedapplications", "C:\\tools\\x.exe", "Add-MpPreference"),),
            id="cfa-allowed-app",
        ),
        pytest.param("Set-MpPreference -ScanScheduleDay 1", (), id="schedule"),
        pytest.param("Set-MpPreference -SignatureUpdateInterval 8", (), id="update-interval"),
        pytest.param(
            "Uninstall-WindowsFeature -Name Windows-Defender",
            (
                _w("defender", None, "Uninstall-Windowsfeature", "Windows-Defender"),
                _w("security-software", "Defender", "uninstall-windowsfeature (uninstall)"),
            ),
            id="uninstall-feature-defender",
        ),
        pytest.param(
            "Remove-WindowsFeature Windows-Defender-Features",
            (
                _w("defender", None, "Remove-Windowsfeature", "Windows-Defender"),
                _w("security-software", "Defender", "remove-windowsfeature (uninstall)"),
            ),
            id="remove-feature-positional",
        ),
        pytest.param(
            "Disable-WindowsOptionalFeature -Online -FeatureName Windows-Defender-Default-Definitions",
            (
                _w("defender", None, "Disable-Windowsoptionalfeature", "Windows-Defender"),
                _w("security-software", "Defender", "disable-windowsoptionalfeature (uninstall)"),
            ),
            id="disable-optional-defender",
        ),
        pytest.param("Uninstall-WindowsFeature -Name Web-Server", (), id="uninstall-other-feature"),
        pytest.param("Disable-WindowsOptionalFeature -Online -FeatureName SMB1Protocol", (), id="disable-smb1"),
        pytest.param(
            "Enable-WindowsOptionalFeature -Online -FeatureName SMB1Protocol",
            (_w("smb1", None, "Enable-Windowsoptionalfeature", "SMB1Protocol"),),
            id="enable-smb1",
        ),
        pytest.param(
            "Enable-WindowsOptionalFeature -Online -FeatureName SMB1Protocol-Client",
            (_w("smb1", None, "Enable-Windowsoptionalfeature", "SMB1Protocol"),),
            id="enable-smb1-client",
        ),
        pytest.param(
            "Install-WindowsFeature FS-SMB1",
            (_w("smb1", None, "Install-Windowsfeature", "SMB1Protocol"),),
            id="install-fs-smb1",
        ),
        pytest.param(
            "Add-WindowsFeature FS-SMB1", (_w("smb1", None, "Add-Windowsfeature", "SMB1Protocol"),), id="add-fs-smb1"
        ),
        # Installing Defender back is no weakening, nor is enabling another feature.
        pytest.param("Install-WindowsFeature Windows-Defender", (), id="install-defender"),
        pytest.param(
            "Enable-WindowsOptionalFeature -Online -FeatureName Windows-Defender-Default-Definitions",
            (),
            id="enable-defender",
        ),
        pytest.param("Enable-WindowsOptionalFeature -Online -FeatureName Microsoft-Hyper-V", (), id="enable-hyperv"),
    ],
)
def test_defender_and_features(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# SMB configuration


def _smb(what: str, setting: str, command: str = "Set-Smbserverconfiguration") -> Effect:
    return _w(what, setting, command, setting)


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "Set-SmbServerConfiguration -EnableSMB1Protocol $true -Force",
            (_smb("smb1", "enablesmb1protocol"),),
            id="smb1-on",
        ),
        pytest.param("Set-SmbServerConfiguration -EnableSMB1Protocol $false -Force", (), id="smb1-off"),
        pytest.param("Set-SmbServerConfiguration -EnableSMB1Protocol 0 -Force", (), id="smb1-zero"),
        pytest.param(
            "Set-SmbServerConfiguration -EnableSMB1Protocol $v",
            (_smb("smb1", "enablesmb1protocol"),),
            id="smb1-unknown",
        ),
        pytest.param(
            "Set-SmbServerConfiguration -RequireSecuritySignature $false -Force",
            (_smb("smb-signing", "requiresecuritysignature"),),
            id="signing-off",
        ),
        pytest.param("Set-SmbServerConfiguration -RequireSecuritySignature $true -Force", (), id="signing-on"),
        pytest.param(
            "Set-SmbServerConfiguration -EnableSecuritySignature 0",
            (_smb("smb-signing", "enablesecuritysignature"),),
            id="enable-signing-0",
        ),
        pytest.param(
            "Set-SmbServerConfiguration -EncryptData $false", (_smb("smb-signing", "encryptdata"),), id="encrypt-off"
        ),
        pytest.param(
            "Set-SmbServerConfiguration -RejectUnencryptedAccess no",
            (_smb("smb-signing", "rejectunencryptedaccess"),),
            id="reject-no",
        ),
        pytest.param(
            "Set-SmbClientConfiguration -EnableInsecureGuestLogons $true",
            (_smb("smb-signing", "enableinsecureguestlogons", "Set-Smbclientconfiguration"),),
            id="guest-logons-on",
        ),
        pytest.param("Set-SmbClientConfiguration -EnableInsecureGuestLogons $false", (), id="guest-logons-off"),
        pytest.param(
            "Set-SmbClientConfiguration -RequireSecuritySignature $v",
            (_smb("smb-signing", "requiresecuritysignature", "Set-Smbclientconfiguration"),),
            id="client-signing-unknown",
        ),
        pytest.param("Set-SmbServerConfiguration -AuditSmb1Access $true", (), id="audit-smb1"),
        pytest.param(
            "Set-SmbServerConfiguration -EnableSMB2Protocol $false -EncryptData $false",
            (_smb("smb-signing", "encryptdata"),),
            id="unlisted-then-listed",
        ),
    ],
)
def test_smb_configuration(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# Service cmdlets and Win32_Service methods


@requirement("S-RULE-37")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("Stop-Service WinDefend -Force", (_w("defender", "WinDefend", "Stop-Service"),), id="stop"),
        pytest.param("Stop-Service -Name mpssvc", (_w("firewall", "mpssvc", "Stop-Service"),), id="stop-named"),
        pytest.param("Stop-Service windefend.exe", (_w("defender", "windefend.exe", "Stop-Service"),), id="exe"),
        pytest.param(
            'Stop-Service -DisplayName "Security Health Service"',
            (_w("security-center", "Security Health Service", "Stop-Service"),),
            id="display-name-spaces",
        ),
        pytest.param("Suspend-Service -Name EventLog", (_w("event-log", "EventLog", "Suspend-Service"),), id="suspend"),
        pytest.param("Remove-Service -Name Sysmon64", (_w("monitoring", "Sysmon64", "Remove-Service"),), id="remove"),
        pytest.param(
            'Stop-Service -Name "SysmonDrv"', (_w("monitoring", "SysmonDrv", "Stop-Service"),), id="sysmon-driver"
        ),
        pytest.param(
            "Stop-Service -Name WinDefend,Spooler,Sense",
            (_w("defender", "WinDefend", "Stop-Service"), _w("defender", "Sense", "Stop-Service")),
            id="list-keeps-security-only",
        ),
        pytest.param(
            "Get-Service WinDefend | Stop-Service", (_w("defender", "WinDefend", "Stop-Service"),), id="piped"
        ),
        pytest.param("Stop-Service Spooler", (), id="stop-other"),
        pytest.param("Restart-Service WinDefend", (), id="restart"),
        pytest.param(
            "Set-Service -Name WinDefend -StartupType Disabled",
            (_w("defender", "WinDefend", "Set-Service"),),
            id="startup-disabled",
        ),
        pytest.param(
            "Set-Service -Name WinDefend -StartupType Manual",
            (_w("defender", "WinDefend", "Set-Service"),),
            id="startup-manual",
        ),
        pytest.param(
            "Set-Service -Name wuauserv -StartupType $mode",
            (_w("updates", "wuauserv", "Set-Service"),),
            id="startup-unknown",
        ),
        pytest.param("Set-Service -Name WinDefend -StartupType Automatic", (), id="startup-automatic"),
        pytest.param(
            "Set-Service -Name wuauserv -Status Stopped", (_w("updates", "wuauserv", "Set-Service"),), id="status-stop"
        ),
        pytest.param(
            "Set-Service -Name wuauserv -Status Paused", (_w("updates", "wuauserv", "Set-Service"),), id="status-pause"
        ),
        pytest.param("Set-Service -Name wuauserv -Status Running", (), id="status-running"),
        pytest.param("Set-Service -Name Spooler -StartupType Disabled", (), id="other-disabled"),
        pytest.param(
            r'Set-Service -Name Spooler -BinaryPathName "C:\Users\Public\evil.exe"',
            (
                effect(
                    K.PERSISTENCE,
                    "Spooler",
                    "Set-Service -BinaryPathName",
                    extra=(("command", "C:\\Users\\Public\\evil.exe"), ("runs_later", "C:\\Users\\Public\\evil.exe")),
                ),
            ),
            id="binary-path",
        ),
        pytest.param(
            "Set-Service -Name Spooler -BinaryPathName $p",
            (effect(K.PERSISTENCE, "Spooler", "Set-Service -BinaryPathName", extra=(("command", ""),)),),
            id="binary-path-unknown",
        ),
        pytest.param(
            "(Get-WmiObject Win32_Service -Filter \"Name='WinDefend'\").StopService()",
            (_w("defender", "WinDefend", "Stop-Service"),),
            id="wmi-object-stop",
        ),
        pytest.param(
            "wmic service where name='WinDefend' call ChangeStartMode Disabled",
            (_w("defender", "WinDefend", "Set-Service"),),
            id="wmic-change-start-mode",
        ),
        pytest.param("wmic service where name='WinDefend' call ChangeStartMode Automatic", (), id="wmic-automatic"),
        pytest.param(
            "wmic service where name='EventLog' call PauseService",
            (_w("event-log", "EventLog", "Suspend-Service"),),
            id="wmic-pause",
        ),
        pytest.param(
            "wmic service where name='Sysmon' call Delete",
            (_w("monitoring", "Sysmon", "Remove-Service"),),
            id="wmic-del",
        ),
        pytest.param("wmic service where name='WinDefend' call StartService", (), id="wmic-start"),
        pytest.param(  # every running service, which of them the gateway cannot tell: asked (S-RULE-87)
            "wmic service where state='Running' call StopService",
            (effect(K.SECURITY_WEAKENING, None, SERVICES_NOT_KNOWN, extra=(("command", "Stop-Service"),)),),
            id="wmic-no-name",
        ),
    ],
)
def test_services(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


@requirement("S-RULE-52")
@pytest.mark.parametrize(
    ("method", "where", "mode", "expected"),
    [
        pytest.param(
            "StopService", "Name='WinDefend'", None, (_w("defender", "WinDefend", "Stop-Service"),), id="stop"
        ),
        pytest.param(
            "PauseService",
            "DisplayName like 'EventLog'",
            None,
            (_w("event-log", "EventLog", "Suspend-Service"),),
            id="pause-displayname-like",
        ),
        pytest.param("Delete", 'name = "Sense"', None, (_w("defender", "Sense", "Remove-Service"),), id="delete"),
        pytest.param(
            "ChangeStartMode",
            "Name='mpssvc'",
            "'Disabled'",
            (_w("firewall", "mpssvc", "Set-Service"),),
            id="change-disabled-quoted",
        ),
        pytest.param(
            "ChangeStartMode", "Name='mpssvc'", None, (_w("firewall", "mpssvc", "Set-Service"),), id="change-unknown"
        ),
        pytest.param("ChangeStartMode", "Name='mpssvc'", "Automatic", (), id="change-automatic"),
        pytest.param("StartService", "Name='WinDefend'", None, (), id="start"),
        pytest.param(
            "StopService",
            "State='Running'",
            None,
            (effect(K.SECURITY_WEAKENING, None, SERVICES_NOT_KNOWN, extra=(("command", "Stop-Service"),)),),
            id="no-name",
        ),
        pytest.param("StopService", "Name='Spooler'", None, (), id="other-service"),
    ],
)
def test_wmi_service_change(method: str, where: str, mode: Value, expected: tuple[Effect, ...]) -> None:
    assert wmi_service_change(method, where, mode) == expected


@requirement("S-RULE-37")
@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param("WinDefend", "defender", id="windefend"),
        pytest.param("'MpsSvc.exe'", "firewall", id="quoted-exe"),
        pytest.param("wuauserv", "updates", id="update"),
        pytest.param("Spooler", None, id="other"),
    ],
)
def test_service_table(value: str, expected: str | None) -> None:
    # Every table entry is a weakening the judge knows how to name.
    assert set(SECURITY_SERVICES.values()) <= WEAKENED
    assert SECURITY_SERVICES.get(service_name(value)) == expected


# ---------------------------------------------------------------------------------------
# Firewall profiles and rules


@requirement("S-RULE-65")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "Set-NetFirewallProfile -Profile Domain,Public,Private -Enabled False",
            (_w("firewall", "Domain,Public,Private", "Set-NetFirewallProfile -Enabled False"),),
            id="profile-off",
        ),
        pytest.param(
            "Set-NetFirewallProfile -All -Enabled False",
            (_w("firewall", "all", "Set-NetFirewallProfile -Enabled False"),),
            id="all-off",
        ),
        pytest.param(
            "Set-NetFirewallProfile -Name Public -Enabled 0",
            (_w("firewall", "Public", "Set-NetFirewallProfile -Enabled False"),),
            id="name-zero",
        ),
        pytest.param(
            "Set-NetFirewallProfile -Profile Public -Enabled $v",
            (_w("firewall", "Public", "Set-NetFirewallProfile -Enabled False"),),
            id="unknown-value",
        ),
        pytest.param(
            "Set-NetFirewallProfile -Enabled False",
            (_w("firewall", None, "Set-NetFirewallProfile -Enabled False"),),
            id="no-profile",
        ),
        pytest.param("Set-NetFirewallProfile -Profile Public -Enabled True", (), id="profile-on"),
        pytest.param(
            "Set-NetFirewallProfile -Profile Public -DefaultInboundAction Allow",
            (_w("firewall", "Public", "Set-NetFirewallProfile -DefaultInboundAction Allow"),),
            id="inbound-allow",
        ),
        pytest.param("Set-NetFirewallProfile -Profile Public -DefaultInboundAction Block", (), id="inbound-block"),
        pytest.param("Set-NetFirewallProfile -Profile Private -LogBlocked True", (), id="log-blocked"),
        pytest.param(
            'New-NetFirewallRule -DisplayName "Backdoor" -Direction Inbound -LocalPort 4444 -Action Allow',
            (_w("firewall-rule", "Backdoor", "New-NetFirewallRule -Action Allow"),),
            id="new-inbound-allow",
        ),
        pytest.param(
            'New-NetFirewallRule -Name "bd" -Direction Inbound -Action Allow',
            (_w("firewall-rule", "bd", "New-NetFirewallRule -Action Allow"),),
            id="new-by-name",
        ),
        pytest.param(
            'New-NetFirewallRule -DisplayName "Web" -LocalPort 8080 -Protocol TCP -Action Allow',
            (_w("firewall-rule", "Web", "New-NetFirewallRule -Action Allow"),),
            id="new-default-direction-inbound",
        ),
        pytest.param(
            'New-NetFirewallRule -DisplayName "Out" -Direction Outbound -Action Allow', (), id="new-outbound-allow"
        ),
        pytest.param('New-NetFirewallRule -DisplayName "Blk" -Direction Inbound -Action Block', (), id="new-block"),
        pytest.param(
            'Enable-NetFirewallRule -DisplayGroup "Remote Desktop"',
            (_w("remote-access", "Remote Desktop", "Enable-Netfirewallrule"),),
            id="enable-rdp",
        ),
        pytest.param(
            'Enable-NetFirewallRule -DisplayGroup "Windows Remote Management"',
            (_w("remote-access", "Windows Remote Management", "Enable-Netfirewallrule"),),
            id="enable-winrm",
        ),
        pytest.param(
            'Enable-NetFirewallRule -DisplayName "Windows Management Instrumentation (WMI-In)"',
            (_w("remote-access", "Windows Management Instrumentation (WMI-In)", "Enable-Netfirewallrule"),),
            id="enable-wmi",
        ),
        pytest.param('Enable-NetFirewallRule -DisplayGroup "File and Printer Sharing"', (), id="enable-other-group"),
        pytest.param(
            'Set-NetFirewallRule -DisplayGroup "Remote Desktop" -Enabled True',
            (_w("remote-access", "Remote Desktop", "Set-NetFirewallRule"),),
            id="set-rdp-enabled",
        ),
        pytest.param(
            'Set-NetFirewallRule -DisplayGroup "Remote Assistance" -Enabled 1',
            (_w("remote-access", "Remote Assistance", "Set-NetFirewallRule"),),
            id="set-assistance-1",
        ),
        pytest.param(
            'Set-NetFirewallRule -Name "WINRM-HTTP-In-TCP" -Enabled $true',
            (_w("remote-access", "WINRM-HTTP-In-TCP", "Set-NetFirewallRule"),),
            id="set-winrm-true",
        ),
        pytest.param(
            'Set-NetFirewallRule -Name "WMI-WINMGMT-In-TCP" -Enabled yes',
            (_w("remote-access", "WMI-WINMGMT-In-TCP", "Set-NetFirewallRule"),),
            id="set-wmi-yes",
        ),
        pytest.param('Set-NetFirewallRule -DisplayGroup "Remote Desktop" -Enabled False', (), id="set-rdp-disabled"),
        pytest.param('Set-NetFirewallRule -DisplayName "Block 445" -Enabled True', (), id="set-other-enabled"),
        pytest.param('Set-NetFirewallRule -DisplayName "Block 445" -Action Block', (), id="set-action-block"),
        pytest.param(
            'Set-NetFirewallRule -DisplayName "Block 445" -Action Allow',
            (_w("firewall-rule", "Block 445", "Set-NetFirewallRule -Action Allow"),),
            id="set-action-allow",
        ),
        pytest.param(
            'Set-NetFirewallRule -DisplayGroup "Remote Desktop" -Action Allow',
            (_w("firewall-rule", "Remote Desktop", "Set-NetFirewallRule -Action Allow"),),
            id="set-group-action-allow",
        ),
        pytest.param(
            'Set-NetFirewallRule -DisplayName "Block 445" -Enabled False',
            (_w("firewall-rule", "Block 445", "Set-NetFirewallRule"),),
            id="set-disabled-false",
        ),
        pytest.param(
            'Set-NetFirewallRule -DisplayName "Block 445" -Enabled $false',
            (_w("firewall-rule", "Block 445", "Set-NetFirewallRule"),),
            id="set-disabled-dollar-false",
        ),
        pytest.param(
            'Set-NetFirewallRule -DisplayName "Block 445" -Enabled 0',
            (_w("firewall-rule", "Block 445", "Set-NetFirewallRule"),),
            id="set-disabled-zero",
        ),
        pytest.param(
            'Set-NetFirewallRule -DisplayName "Block 445" -Enabled no',
            (_w("firewall-rule", "Block 445", "Set-NetFirewallRule"),),
            id="set-disabled-no",
        ),
        pytest.param(
            'Disable-NetFirewallRule -DisplayName "Block Telnet"',
            (_w("firewall-rule", "Block Telnet", "Disable-Netfirewallrule"),),
            id="disable-by-name",
        ),
        pytest.param('Disable-NetFirewallRule -DisplayGroup "Remote Desktop"', (), id="disable-display-group"),
        pytest.param('Disable-NetFirewallRule -Group "@FirewallAPI.dll,-28752"', (), id="disable-group"),
        pytest.param(
            'Remove-NetFirewallRule -Name "BlockOutbound"',
            (_w("firewall-rule", "BlockOutbound", "Remove-Netfirewallrule"),),
            id="remove-by-name",
        ),
        pytest.param(
            "Remove-NetFirewallRule -All", (_w("firewall-rule", None, "Remove-Netfirewallrule"),), id="remove-all"
        ),
        pytest.param(
            'Get-NetFirewallRule -DisplayName "Block*" | Remove-NetFirewallRule',
            (_w("firewall-rule", None, "Remove-Netfirewallrule"),),
            id="remove-piped",
        ),
        pytest.param('Remove-NetFirewallRule -DisplayGroup "Custom Blocks"', (), id="remove-group"),
    ],
)
def test_firewall_cmdlets(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# Certificates, BitLocker, execution policy, exploit protection


@requirement("S-RULE-56")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            r"Import-Certificate -FilePath C:\Users\Public\ca.cer -CertStoreLocation Cert:\LocalMachine\Root",
            (_w("trusted-root", "Cert:\\LocalMachine\\Root", "Import-Certificate", "certstorelocation"),),
            id="import-root",
        ),
        pytest.param(
            r"Import-Certificate C:\Users\Public\ca.cer -CertStoreLocation Cert:\CurrentUser\AuthRoot",
            (_w("trusted-root", "Cert:\\CurrentUser\\AuthRoot", "Import-Certificate", "certstorelocation"),),
            id="import-authroot-positional",
        ),
        pytest.param(
            r"Import-Certificate -FilePath C:\ca.cer -CertStoreLocation Cert:/LocalMachine/TrustedPublisher/",
            (_w("trusted-root", "Cert:/LocalMachine/TrustedPublisher/", "Import-Certificate", "certstorelocation"),),
            id="import-forward-slashes",
        ),
        pytest.param(
            r"Import-Certificate -FilePath C:\ca.cer -CertStoreLocation $store",
            (_w("trusted-root", None, "Import-Certificate", "certstorelocation"),),
            id="import-unknown-store",
        ),
        pytest.param(
            r"Import-PfxCertificate C:\x.pfx -CertStoreLocation Cert:\LocalMachine\TrustedPeople -Password $pw",
            (_w("trusted-root", "Cert:\\LocalMachine\\TrustedPeople", "Import-Pfxcertificate", "certstorelocation"),),
            id="pfx-trusted-people",
        ),
        pytest.param(
            r"Import-Certificate -FilePath C:\ca.cer -CertStoreLocation Cert:\CurrentUser\My", (), id="import-my"
        ),
        pytest.param(
            r"Import-PfxCertificate -FilePath C:\x.pfx -CertStoreLocation Cert:\LocalMachine\My -Password $pw",
            (),
            id="pfx-my",
        ),
        pytest.param(r"Import-Certificate -FilePath C:\ca.cer", (), id="import-no-store"),
        pytest.param(
            "Disable-BitLocker -MountPoint C:", (_w("bitlocker", "C:", "Disable-Bitlocker"),), id="disable-bitlocker"
        ),
        pytest.param("Disable-BitLocker D:", (_w("bitlocker", "D:", "Disable-Bitlocker"),), id="disable-positional"),
        pytest.param(
            'Suspend-BitLocker -MountPoint "C:" -RebootCount 0',
            (_w("bitlocker", "C:", "Suspend-Bitlocker"),),
            id="suspend-bitlocker",
        ),
        pytest.param(
            "Remove-BitLockerKeyProtector -MountPoint C: -KeyProtectorId $id",
            (_w("bitlocker", "C:", "Remove-Bitlockerkeyprotector"),),
            id="remove-protector",
        ),
        pytest.param("cmd /c manage-bde -off C:", (_w("bitlocker", None, "manage-bde -off"),), id="manage-bde-off"),
        pytest.param(
            "cmd /c manage-bde -forcerecovery C:",
            (_w("bitlocker", None, "manage-bde -forcerecovery"),),
            id="manage-bde-forcerecovery",
        ),
        pytest.param("cmd /c manage-bde -fr C:", (_w("bitlocker", None, "manage-bde -fr"),), id="manage-bde-fr"),
        pytest.param(
            'cmd /c "manage-bde -protectors -disable C: -rebootcount 0"',
            (_w("bitlocker", None, "manage-bde -protectors -disable -rebootcount"),),
            id="manage-bde-protectors-disable",
        ),
        pytest.param(
            "cmd /c manage-bde -protectors -delete C: -type TPM",
            (_w("bitlocker", None, "manage-bde -protectors -delete -type"),),
            id="manage-bde-protectors-delete",
        ),
        pytest.param("manage-bde -protectors -get C:", (), id="manage-bde-get"),
        pytest.param("manage-bde -status", (), id="manage-bde-status"),
        pytest.param(
            "manage-bde -on C: -RecoveryPassword",  # S-RULE-179: a drive encrypted is a person's call
            (Effect(K.DISK_LOCK, "C:", "manage-bde -on -recoverypassword"),),
            id="manage-bde-on",
        ),
        pytest.param("manage-bde -disable C:", (), id="disable-without-protectors"),
    ],
)
def test_certificates_and_bitlocker(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "Set-ExecutionPolicy Bypass -Scope CurrentUser -Force",
            (_w("execution-policy", "Bypass", "Set-ExecutionPolicy", "currentuser"),),
            id="bypass-user",
        ),
        pytest.param(
            "Set-ExecutionPolicy Unrestricted",
            (_w("execution-policy", "Unrestricted", "Set-ExecutionPolicy", "localmachine"),),
            id="unrestricted-default-scope",
        ),
        pytest.param(
            "Set-ExecutionPolicy Bypass LocalMachine",
            (_w("execution-policy", "Bypass", "Set-ExecutionPolicy", "localmachine"),),
            id="positional-scope",
        ),
        pytest.param(
            "Set-ExecutionPolicy -ExecutionPolicy $p -Scope LocalMachine",
            (_w("execution-policy", None, "Set-ExecutionPolicy", "localmachine"),),
            id="unknown-policy",
        ),
        pytest.param(
            "Set-ExecutionPolicy Bypass -Scope $s",
            (_w("execution-policy", "Bypass", "Set-ExecutionPolicy", "localmachine"),),
            id="unknown-scope",
        ),
        # One session only: the process scope dies with the shell.
        pytest.param("Set-ExecutionPolicy -ExecutionPolicy Bypass -Scope Process -Force", (), id="process-scope"),
        pytest.param("Set-ExecutionPolicy -ExecutionPolicy RemoteSigned -Scope CurrentUser", (), id="remotesigned"),
        pytest.param("Set-ExecutionPolicy -ExecutionPolicy AllSigned", (), id="allsigned"),
        pytest.param("Set-ExecutionPolicy -Scope CurrentUser", (), id="no-policy"),
        pytest.param(
            "Set-ProcessMitigation -Name notepad.exe -Disable DEP,CFG",
            (_w("exploit-protection", "notepad.exe", "Set-ProcessMitigation -Disable"),),
            id="mitigation-disable",
        ),
        pytest.param(
            "Set-ProcessMitigation -System -Disable ASLR",
            (_w("exploit-protection", None, "Set-ProcessMitigation -Disable"),),
            id="mitigation-system",
        ),
        pytest.param("Set-ProcessMitigation -Name notepad.exe -Enable DEP", (), id="mitigation-enable"),
    ],
)
def test_execution_policy_and_mitigation(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


# ---------------------------------------------------------------------------------------
# AMSI, remote management, event-log sessions, tunnels


@requirement("S-RULE-34")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("Enable-PSRemoting -Force", (_w("remote-access", None, "Enable-PSRemoting"),), id="psremoting"),
        pytest.param(
            "Set-WSManQuickConfig -Force", (_w("remote-access", None, "Set-WSManQuickConfig"),), id="wsman-quickconfig"
        ),
        pytest.param(
            "Enable-WSManCredSSP -Role Server -Force", (_w("remote-access", None, "Enable-WSManCredSSP"),), id="credssp"
        ),
        pytest.param(
            "Add-WindowsCapability -Online -Name OpenSSH.Server~~~~0.0.1.0",
            (_w("remote-access", None, "Add-WindowsCapability OpenSSH.Server"),),
            id="openssh-server",
        ),
        pytest.param("Add-WindowsCapability -Online -Name OpenSSH.Client~~~~0.0.1.0", (), id="openssh-client"),
        pytest.param("winrm quickconfig -q", (_w("remote-access", None, "winrm quickconfig"),), id="winrm-quickconfig"),
        pytest.param("winrm qc", (_w("remote-access", None, "winrm qc"),), id="winrm-qc"),
        pytest.param(
            'winrm invoke Create wmicimv2/Win32_Process @{CommandLine="calc.exe"}',
            (_w("remote-access", None, "winrm invoke"),),
            id="winrm-invoke",
        ),
        pytest.param(
            "winrm set winrm/config/client '@{TrustedHosts=\"*\"}'",
            (_w("remote-access", None, "winrm set"),),
            id="winrm-trustedhosts",
        ),
        pytest.param(
            "winrm set winrm/config/service '@{AllowUnencrypted=\"true\"}'",
            (_w("remote-access", None, "winrm set"),),
            id="winrm-unencrypted",
        ),
        pytest.param(
            "winrm s winrm/config/service/auth '@{Basic=\"true\"}'",
            (_w("remote-access", None, "winrm s"),),
            id="winrm-s-basic",
        ),
        pytest.param(
            "winrm set winrm/config/service/auth '@{CredSSP=\"true\"}'",
            (_w("remote-access", None, "winrm set"),),
            id="winrm-credssp",
        ),
        pytest.param("winrm set winrm/config/service/auth '@{Basic=\"false\"}'", (), id="winrm-basic-false"),
        pytest.param("winrm set winrm/config '@{MaxTimeoutms=\"60000\"}'", (), id="winrm-other-setting"),
        pytest.param("winrm get winrm/config", (), id="winrm-get"),
        pytest.param("winrm enumerate winrm/config/listener", (), id="winrm-enumerate"),
        pytest.param(
            r"Set-Item WSMan:\localhost\Client\TrustedHosts -Value * -Force",
            (_w("remote-access", "WSMan:\\localhost\\Client\\TrustedHosts", "Set-Item WSMan:"),),
            id="wsman-trustedhosts",
        ),
        pytest.param(
            r"Set-Item WSMan:\localhost\Service\AllowUnencrypted $true",
            (_w("remote-access", "WSMan:\\localhost\\Service\\AllowUnencrypted", "Set-Item WSMan:"),),
            id="wsman-unencrypted",
        ),
        pytest.param(
            r"Set-Item WSMan:\localhost\Service\Auth\Basic $true",
            (_w("remote-access", "WSMan:\\localhost\\Service\\Auth\\Basic", "Set-Item WSMan:"),),
            id="wsman-basic",
        ),
        pytest.param(
            r"Set-Item WSMan:\localhost\Service\Auth\CredSSP $true",
            (_w("remote-access", "WSMan:\\localhost\\Service\\Auth\\CredSSP", "Set-Item WSMan:"),),
            id="wsman-credssp",
        ),
        pytest.param(r"Set-Item WSMan:\localhost\Service\Auth\Kerberos $true", (), id="wsman-kerberos"),
        pytest.param(r"Set-Item WSMan:\localhost\MaxEnvelopeSizekb 8192", (), id="wsman-envelope"),
        pytest.param(
            "ssh -R 4444:localhost:3389 user@vps.example.com",
            (_w("remote-access", None, "ssh -R (a remote port forwarded here)"),),
            id="ssh-remote-forward",
        ),
        pytest.param(
            "plink -R 4444:127.0.0.1:3389 user@vps.example.com",
            (_w("remote-access", None, "plink -R (a remote port forwarded here)"),),
            id="plink-remote-forward",
        ),
        pytest.param("ssh -L 8080:localhost:80 user@host", (), id="ssh-local-forward"),
        pytest.param("ssh -D 1080 user@host", (), id="ssh-socks"),
        pytest.param("ngrok tcp 3389", (_w("remote-access", None, "ngrok tcp 3389"),), id="ngrok-tcp"),
        pytest.param("ngrok http 8080", (_w("remote-access", None, "ngrok http 8080"),), id="ngrok-http"),
        pytest.param("ngrok start --all", (_w("remote-access", None, "ngrok start --all"),), id="ngrok-start"),
        pytest.param("ngrok config add-authtoken abc123", (), id="ngrok-config"),
        pytest.param(
            "cloudflared tunnel run mytunnel",
            (_w("remote-access", None, "cloudflared tunnel run"),),
            id="cloudflared-tunnel",
        ),
        pytest.param("cloudflared --version", (), id="cloudflared-version"),
        pytest.param("frpc -c frpc.ini", (_w("remote-access", None, "frpc -c frpc.ini"),), id="frpc-any"),
        pytest.param("frpc", (_w("remote-access", None, "frpc"),), id="frpc-bare"),
    ],
)
def test_remote_access(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "logman stop EventLog-Application -ets",
            (_w("event-log", "EventLog-Application", "logman stop"),),
            id="logman-stop",
        ),
        pytest.param(
            'logman delete "EventLog-System" -ets',
            (_w("event-log", "EventLog-System", "logman delete"),),
            id="logman-delete-quoted",
        ),
        pytest.param(
            "logman update trace EventLog-Security --p Microsoft-Windows-Security-Auditing -ets",
            (_w("event-log", "EventLog-Security", "logman update"),),
            id="logman-update-trace",
        ),
        pytest.param(
            'logman update trace "Microsoft-Windows-Threat-Intelligence" -ets',
            (_w("event-log", "Microsoft-Windows-Threat-Intelligence", "logman update"),),
            id="logman-threat-intel",
        ),
        pytest.param(
            "logman delete counter EventLog-Application",
            (_w("event-log", "EventLog-Application", "logman delete"),),
            id="logman-delete-counter",
        ),
        pytest.param(
            "logman stop DiagTrack-Listener -ets",
            (_w("event-log", "DiagTrack-Listener", "logman stop"),),
            id="logman-diagtrack",
        ),
        pytest.param(
            "logman stop SysmonDnsEtwSession -ets",
            (_w("event-log", "SysmonDnsEtwSession", "logman stop"),),
            id="logman-sysmon",
        ),
        pytest.param("logman stop MyPerfCounters", (), id="logman-own-session"),
        pytest.param("logman query -ets", (), id="logman-query"),
        pytest.param(
            r"logman start EventLog-Mine -p Microsoft-Windows-Kernel-Process -o C:\t.etl -ets", (), id="logman-start"
        ),
        pytest.param(
            "Stop-EtwTraceSession -Name EventLog-Application",
            (_w("event-log", "EventLog-Application", "Stop-Etwtracesession"),),
            id="etw-stop",
        ),
        pytest.param(
            'Remove-EtwTraceSession -Name "Sysmon"',
            (_w("event-log", "Sysmon", "Remove-Etwtracesession"),),
            id="etw-remove",
        ),
        pytest.param(
            "Remove-EtwTraceProvider -SessionName EventLog-System -Guid '{54849625-5478-4994-A5BA-3E3B0328C30D}'",
            (_w("event-log", "EventLog-System", "Remove-Etwtraceprovider"),),
            id="etw-remove-provider",
        ),
        pytest.param(
            "Remove-AutologgerConfig -Name DiagTrack-Listener",
            (_w("event-log", "DiagTrack-Listener", "Remove-Autologgerconfig"),),
            id="autologger",
        ),
        pytest.param(
            "Remove-EtwTraceSession -Name $n", (_w("event-log", None, "Remove-Etwtracesession"),), id="etw-unknown"
        ),
        pytest.param("Remove-AutologgerConfig -Name MyTraceLogger", (), id="autologger-own"),
        pytest.param("Stop-EtwTraceSession -Name MyTrace", (), id="etw-own"),
        pytest.param(
            "[Ref].Assembly.GetType('System.Management.Automation.AmsiUtils')"
            ".GetField('amsiInitFailed','NonPublic,Static').SetValue($null,$true)",
            (
                effect(K.REGISTRY_SET, None, "RegistryKey.setvalue", value_name="", data="true"),
                _w("amsi", None, "?.setvalue"),
            ),
            id="amsi-init-failed",
        ),
        pytest.param(
            "[Runtime.InteropServices.Marshal]::WriteInt32([Ref].Assembly.GetType("
            "'System.Management.Automation.AmsiUtils').GetField('amsiContext','NonPublic,Static')"
            ".GetValue($null),0x41414141)",
            # the reflected field's GetValue reaches into AMSI too (no registry read: S-RULE-165, S-RULE-175)
            (_w("amsi", None, "?.getvalue"), _w("amsi", None, "system.runtime.interopservices.marshal::writeint32")),
            id="amsi-context",
        ),
        pytest.param("[System.Text.Encoding]::UTF8.GetBytes('hello')", (), id="ordinary-dotnet"),
    ],
)
def test_event_logs_and_amsi(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


@requirement("S-RULE-34")
@pytest.mark.parametrize(
    ("path", "expected"),
    [
        pytest.param(
            r"WSMan:\localhost\Client\TrustedHosts",
            (_w("remote-access", r"WSMan:\localhost\Client\TrustedHosts", "Set-Item WSMan:"),),
            id="trustedhosts",
        ),
        pytest.param(
            r"wsman:\localhost\service\auth\basic",
            (_w("remote-access", r"wsman:\localhost\service\auth\basic", "Set-Item WSMan:"),),
            id="lower-case-basic",
        ),
        pytest.param(r"C:\Temp\trustedhosts", (), id="not-wsman-drive"),
        pytest.param(r"WSMan:\localhost\Service\Auth\Kerberos", (), id="kerberos"),
        pytest.param(None, (), id="unknown"),
    ],
)
def test_wsman_setting(path: Value, expected: tuple[Effect, ...]) -> None:
    assert wsman_setting(path) == expected


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("op", "expected"),
    [
        pytest.param(
            _op("system.management.automation.amsiutils::scancontent", "[AmsiUtils]::ScanContent($x)"),
            (_w("amsi", None, "system.management.automation.amsiutils::scancontent"),),
            id="by-name",
        ),
        pytest.param(
            _op("?.getfield", "$t.GetField('amsiSession')", "'amsiSession'"),
            (_w("amsi", None, "?.getfield"),),
            id="by-text",
        ),
        pytest.param(
            _op("?.invoke", "$m.Invoke($null, $a)", "AmsiScanBuffer"),
            (_w("amsi", None, "?.invoke"),),
            id="by-argument",
        ),
        pytest.param(_op("?.invoke", "$m.Invoke($null, $a)", "ScanBuffer"), (), id="other-argument"),
    ],
)
def test_dotnet_security(op: Operation, expected: tuple[Effect, ...]) -> None:
    assert dotnet_security(op) == expected


@requirement("S-RULE-56")
@pytest.mark.parametrize(
    ("location", "expected"),
    [
        pytest.param("Root", True, id="root"),
        pytest.param(r"Cert:\LocalMachine\Root\\", True, id="trailing-backslashes"),
        pytest.param("cert:/currentuser/trustedpublisher", True, id="forward-slashes"),
        pytest.param(r"Cert:\LocalMachine\My", False, id="my"),
        pytest.param(r"Cert:\LocalMachine\Root\Sub", False, id="below-root"),
    ],
)
def test_trust_store(location: str, expected: bool) -> None:
    assert trust_store(location) is expected


# ---------------------------------------------------------------------------------------
# Security software uninstalled


def _gone(product: str, command: str) -> Effect:
    return _w("security-software", product, f"{command} (uninstall)")


@requirement("S-RULE-40")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param(
            "winget uninstall Malwarebytes.Malwarebytes", (_gone("Malwarebytes", "winget"),), id="winget-uninstall"
        ),
        pytest.param("winget uninstall --id Mozilla.Firefox", (), id="winget-other"),
        pytest.param("winget install Malwarebytes.Malwarebytes", (), id="winget-install"),
        pytest.param("choco uninstall sysmon -y", (_gone("sysmon", "choco"),), id="choco"),
        pytest.param("scoop uninstall sophos", (_gone("sophos", "scoop"),), id="scoop"),
        pytest.param("choco install avast", (), id="choco-install"),
        pytest.param(
            "wmic product where \"name like '%Sophos%'\" call uninstall", (_gone("Sophos", "wmic"),), id="wmic"
        ),
        pytest.param("wmic product where \"name like '%Adobe%'\" call uninstall", (), id="wmic-other"),
        pytest.param(
            "Get-Package *Sophos* | Uninstall-Package -Force",
            (_gone("Sophos", "uninstall-package"),),
            id="piped-name",
        ),
        pytest.param("Get-Package *Adobe* | Uninstall-Package -Force", (), id="piped-other"),
        pytest.param("Get-Package *Sophos* ; Uninstall-Package -Name Foo", (), id="not-piped"),
        pytest.param(
            'Uninstall-Package -Name "CrowdStrike Windows Sensor"',
            (_gone("CrowdStrike", "uninstall-package"),),
            id="uninstall-package",
        ),
        pytest.param(
            "Get-AppxPackage *SecHealthUI* | Remove-AppxPackage",
            (_gone("SecHealthUI", "remove-appxpackage"),),
            id="appx",
        ),
        pytest.param("Get-AppxPackage *Calculator* | Remove-AppxPackage", (), id="appx-other"),
        pytest.param("Uninstall-Module -Name Defender", (_gone("Defender", "uninstall-module"),), id="module"),
        pytest.param(
            "Get-CimInstance Win32_Product -Filter \"Name like 'Kaspersky%'\" | Invoke-CimMethod -MethodName Uninstall",
            (_gone("Kaspersky", "invoke-cimmethod"),),
            id="cim-piped",
        ),
        pytest.param(
            "Invoke-CimMethod -ClassName Win32_Product -Filter \"Name='ESET Endpoint Security'\" -MethodName Uninstall",
            (_gone("ESET", "invoke-cimmethod"),),
            id="cim-filter",
        ),
        pytest.param(
            "Invoke-WmiMethod -Class Win32_Product -Name Uninstall -Filter \"Name='Webroot'\"",
            (_gone("Webroot", "invoke-wmimethod"),),
            id="wmi-method",
        ),
        pytest.param(
            "Invoke-CimMethod -ClassName Win32_Product -Filter \"Name='Norton'\" -MethodName Reinstall",
            (),
            id="cim-reinstall",
        ),
        pytest.param(
            "dism /online /remove-capability /capabilityname:Windows.Defender~~~~0.0.1.0",
            (_gone("Defender", "dism"),),
            id="dism-capability",
        ),
        pytest.param(
            'winget uninstall "Bitdefender Total Security" ; winget uninstall "Avast Free Antivirus"',
            (_gone("Bitdefender", "winget"), _gone("Avast", "winget")),
            id="two-uninstalls",
        ),
        pytest.param(
            "msiexec /x {12345678-1234-1234-1234-123456789012} /qn",
            (effect(K.EXECUTE, None, "msiexec"),),
            id="product-code-not-judged",
        ),
    ],
)
def test_security_software_removed(command: str, expected: tuple[Effect, ...]) -> None:
    assert _effects(command) == expected


@requirement("S-RULE-40")
@pytest.mark.parametrize(
    ("ops", "expected"),
    [
        pytest.param(
            (_op("uninstall", "winget uninstall Malwarebytes", "uninstall", shell="cmd"),),
            (),
            id="cmd-shell-not-a-program",
        ),
        pytest.param(
            (_op("winget", "winget uninstall Malwarebytes", shell="program"),),
            (_gone("Malwarebytes", "winget"),),
            id="program",
        ),
        pytest.param(
            (_op("uninstall-package", "Uninstall-Package", shell="program"),),
            (),
            id="cmdlet-name-as-program",
        ),
        pytest.param(
            (_op("uninstall-package", "Uninstall-Package -Name Sophos Anti-Virus"),),
            (_gone("Sophos", "uninstall-package"),),
            id="first-op-own-text",
        ),
        pytest.param(
            (_op("uninstall-package", "Uninstall-Package", piped_from=""),),
            (),
            id="piped-first-op-reads-nothing-before",
        ),
        pytest.param(
            (
                _op("get-package", "Get-Package *Sophos*"),
                _op("uninstall-package", "Uninstall-Package", piped_from="get-package"),
            ),
            (_gone("Sophos", "uninstall-package"),),
            id="piped-reads-feeder",
        ),
        pytest.param(
            (
                _op("get-package", "Get-Package *Sophos*"),
                _op("get-date", "Get-Date"),
                _op("uninstall-package", "Uninstall-Package", piped_from="get-date"),
            ),
            (),
            id="reads-only-direct-feeder",
        ),
    ],
)
def test_security_software_removed_ops(ops: tuple[Operation, ...], expected: tuple[Effect, ...]) -> None:
    assert security_software_removed(ops) == expected


# ---------------------------------------------------------------------------------------
# The verdicts these effects exist to make


@requirement("S-RULE-19")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        pytest.param("sc.exe stop WinDefend", ("disable-defender", "deny"), id="sc-defender"),
        pytest.param("sc.exe stop bfe", ("disable-firewall", "deny"), id="sc-firewall"),
        pytest.param("sc.exe stop UsoSvc", ("security-weakening", "deny"), id="sc-updates"),
        pytest.param("sc.exe stop Spooler", None, id="sc-other"),
        pytest.param("Set-MpPreference -DisableRealtimeMonitoring $true", ("disable-defender", "deny"), id="mp"),
        pytest.param("Set-MpPreference -DisableRealtimeMonitoring $false", None, id="mp-on"),
        pytest.param("netsh advfirewall set allprofiles state off", ("disable-firewall", "deny"), id="netsh-off"),
        pytest.param("netsh advfirewall set allprofiles state on", None, id="netsh-on"),
        pytest.param("Set-ExecutionPolicy Bypass -Scope CurrentUser", ("weaken-execution-policy", "deny"), id="ep"),
        pytest.param("Set-ExecutionPolicy Bypass -Scope Process", None, id="ep-process"),
        pytest.param('bcdedit /set "{default}" recoveryenabled No', ("delete-backups", "deny"), id="bcd-recovery"),
        pytest.param("bcdedit /set testsigning on", ("security-weakening", "deny"), id="bcd-testsigning"),
        pytest.param("bcdedit /enum", None, id="bcd-enum"),
        pytest.param('netsh wlan show profile name="Home" key=clear', ("credential-access", "deny"), id="wlan"),
        pytest.param(r"netsh add helper C:\Users\Public\h.dll", ("persistence-hijack", "deny"), id="netsh-helper"),
        pytest.param("ngrok tcp 3389", ("security-weakening", "deny"), id="ngrok"),
        pytest.param("ngrok config add-authtoken abc123", None, id="ngrok-config"),
        pytest.param("winget uninstall Malwarebytes.Malwarebytes", ("security-weakening", "deny"), id="uninstall"),
    ],
)
def test_verdicts(command: str, expected: tuple[str, str] | None) -> None:
    assert _verdict(command) == expected
