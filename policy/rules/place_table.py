"""The protected places (issue 18 item 3, issue 12 item 2): what a place is, and the tables that list them.

The tables are data in a small text form (below), read once into `FILE_PLACES` and `KEY_PLACES`;
`places.py` builds its matching trie from them. The effect rules name a `PlaceCategory`, never a path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, TypeAlias

# =======================================================================================
# Places


class PlaceCategory(StrEnum):
    """The closed set of kinds of protected place; the effect rules name these, never paths."""

    SYSTEM = "system"
    BOOT = "boot"
    PROGRAM_FILES = "program-files"
    HOSTS = "hosts"
    USER_DATA = "user-data"
    STARTUP = "startup"
    CREDENTIAL_STORE = "credential-store"
    CREDENTIAL_HIVE = "credential-hive"
    EVENT_LOG = "event-log"
    SHELL_PROFILE = "shell-profile"
    MCP_CLIENT_CONFIG = "mcp-client-config"
    EDITOR_SETTINGS = "editor-settings"
    GATEWAY_STATE = "gateway-state"
    GATEWAY_ENVIRONMENT = "gateway-environment"
    HIJACK_FILE = "hijack-file"
    AUTOSTART_KEY = "autostart-key"
    HIJACK_KEY = "hijack-key"
    SERVICE_KEY = "service-key"
    WDIGEST_LSA_KEY = "wdigest-lsa-key"
    SECURITY_TOOL_KEY = "security-tool-key"
    UAC_KEY = "uac-key"
    ENVIRONMENT_KEY = "environment-key"
    REMOTE_LOGIN = "remote-login"
    ACCOUNTS = "accounts"
    NETWORK_KEY = "network-key"


@dataclass(frozen=True, slots=True, kw_only=True)
class Place:
    """One protected place.

    Attributes:
        id: stable id (`system32`, `chrome-credentials`, `run-key`), for tests and the audit.
        category: what kind of place it is; the effect rules match on this.
        label: a plain phrase naming it in a reason ("the Windows system folder (System32)").
    """

    id: str
    category: PlaceCategory
    label: str


# =======================================================================================
# The place tables
#
# A place is a line `id  category  scope | label` followed by its patterns, one or more per
# indented line (`;` between them). A pattern is a canonical path (or key) whose components may
# be globs (`*` = any one component); `{a,b}` spells several patterns at once; `~\` at the start
# stands for every profile root (users, SYSTEM's, the service accounts'), `$CV`, `$NT`, `$CTL`
# and `$SVC` for the long registry stems below, `hk*\` for both HKLM and HKCU. `tree` covers
# the place and everything in it; `exact` the place itself only (a user's Documents folder is
# protected from being deleted or moved, not the files in it); `open` carves a folder out of
# an enclosing place. A registry pattern may end with `[value, …]`: only those values of the
# key are the place.

_Scope: TypeAlias = Literal["tree", "exact", "open"]
_PROFILES = ("c:\\users\\*", "c:\\windows\\system32\\config\\systemprofile", "c:\\windows\\serviceprofiles\\*")

_FILE_TABLE = r"""
windows            system        tree  | the Windows folder
    c:\windows
system32           system        tree  | the Windows system folder (System32)
    c:\windows\system32
syswow64           system        tree  | the 32-bit Windows system folder (SysWOW64)
    c:\windows\syswow64
drivers            system        tree  | the Windows drivers folder
    c:\windows\system32\drivers
windows-temp       system        open  | the Windows temporary folder
    c:\windows\temp
bootmgr            boot          exact | the Windows boot manager
    c:\{bootmgr,bootnxt,ntldr,boot.ini}
boot-folder        boot          tree  | the boot configuration (BCD) folder
    c:\boot
efi                boot          tree  | the EFI boot folder
    c:\efi
recovery           boot          tree  | the Windows recovery environment
    c:\recovery
restore-points     boot          tree  | the System Volume Information folder (restore points)
    c:\system volume information
pagefile           boot          exact | a Windows paging or hibernation file
    c:\{pagefile.sys,hiberfil.sys,swapfile.sys}
program-files      program-files tree  | the Program Files folder
    c:\program files
program-files-x86  program-files tree  | the Program Files (x86) folder
    c:\program files (x86)
user-programs      program-files tree  | the per-user Programs folder (VS Code, Python and other per-user installs)
    ~\appdata\local\programs
python-tools       program-files tree  | the Python tools and interpreters of uv and pipx (Windows-MCP runs from one)
    ~\appdata\roaming\uv\{python,tools}; ~\appdata\local\uv\cache
    ~\pipx\venvs; ~\.local\pipx\venvs; ~\appdata\local\pipx\pipx\venvs
defender-data      program-files tree  | Microsoft Defender's data folder
    c:\programdata\microsoft\{windows defender,windows defender advanced threat protection}
drivers-etc        hosts         tree  | the network configuration folder (drivers\etc)
    c:\windows\system32\drivers\etc
hosts              hosts         tree  | the hosts file
    c:\windows\system32\drivers\etc\hosts
users              user-data     exact | the folder of all user profiles
    c:\users
user-profile       user-data     exact | a user's profile folder
    c:\users\*
user-folder        user-data     exact | a user's data folder
    c:\users\*\{desktop,documents,downloads,pictures,music,videos,favorites,contacts,links}
    c:\users\*\{saved games,searches,3d objects,onedrive}; c:\users\*\onedrive\{desktop,documents,pictures}
    c:\users\*\appdata; c:\users\*\appdata\{roaming,local,locallow}
startup            startup       tree  | the user's Startup folder
    ~\appdata\roaming\microsoft\windows\start menu\programs\startup
common-startup     startup       tree  | the all-users Startup folder
    c:\programdata\microsoft\windows\start menu\programs\startup
office-startup     startup       tree  | an Office startup folder (what is in it loads with Word or Excel)
    ~\appdata\roaming\microsoft\{word\startup,excel\xlstart}
    c:\program files\microsoft office\root\{office16\startup,office16\xlstart}
office-template    startup       exact | Word's global template (its macros run with every document)
    ~\appdata\roaming\microsoft\templates\{normal.dotm,normalemail.dotm}
outlook-macros     startup       exact | Outlook's macro project (it loads with Outlook)
    ~\appdata\roaming\microsoft\outlook\vbaproject.otm
ps-modules         startup       tree  | a PowerShell module folder (its modules load when used, PSReadLine always)
    ~\documents\{windowspowershell,powershell}\modules; ~\onedrive\*\{windowspowershell,powershell}\modules
taskbar-pins       startup       tree  | the taskbar's pinned shortcuts (a changed one starts another program)
    ~\appdata\roaming\microsoft\internet explorer\quick launch\user pinned\taskbar
app-shortcuts      startup       exact | a Start-menu or shared-desktop shortcut (a changed one starts something else)
    ~\appdata\roaming\microsoft\windows\start menu\programs\{*.lnk,*.url}
    c:\programdata\microsoft\windows\start menu\programs\{*.lnk,*.url}
    c:\users\public\desktop\{*.lnk,*.url}
ssh-client-config  startup       exact | the SSH client's settings (its ProxyCommand or LocalCommand runs at each ssh)
    ~\.ssh\config
unix-shell-startup startup       exact | a Unix shell's startup file (Git Bash, MSYS2 and Cygwin run it at each start)
    c:\users\*\{.bashrc,.bash_profile,.bash_login,.profile,.zshrc,.zprofile,.zshenv}
    //\wsl*\*\home\*\{.bashrc,.bash_profile,.bash_login,.profile,.zshrc,.zprofile,.zshenv}
    //\wsl*\*\root\{.bashrc,.bash_profile,.profile,.zshrc}
    //\wsl*\*\etc\{profile,bash.bashrc,zsh\zshrc,environment,wsl.conf,rc.local,crontab}
terminal-settings  startup       exact | Windows Terminal's settings (a profile's command line runs when a tab opens)
    ~\appdata\local\packages\microsoft.windowsterminal*_8wekyb3d8bbwe\localstate\settings.json
    ~\appdata\local\microsoft\windows terminal\settings.json
package-sources    startup       exact | a package manager's settings (where later installs fetch code, what runs it)
    ~\appdata\roaming\pip\pip.ini; ~\pip\pip.ini; ~\.config\pip\pip.conf; c:\programdata\pip\pip.ini
    ~\.condarc; ~\appdata\roaming\nuget\nuget.config; ~\.yarnrc; ~\.yarnrc.yml; ~\.cargo\config.toml
    ~\appdata\roaming\uv\uv.toml; ~\.config\uv\uv.toml
credential-manager credential-store tree | Windows Credential Manager's store
    ~\appdata\{roaming,local}\microsoft\{credentials,vault}; c:\programdata\microsoft\vault
dpapi-keys         credential-store tree | the Windows data-protection (DPAPI) keys
    ~\appdata\roaming\microsoft\{protect,crypto}; c:\windows\system32\microsoft\protect
    c:\programdata\microsoft\crypto
wifi-profiles      credential-store tree | the saved Wi-Fi keys
    c:\programdata\microsoft\wlansvc\profiles
ssh-keys           credential-store exact | the user's SSH private keys
    c:\users\*\.ssh\{id_*[!b],id_*[!u]b,id_*[!p]ub,id_*[!.]pub}
    //\wsl*\*\home\*\.ssh\{id_*[!b],id_*[!u]b,id_*[!p]ub,id_*[!.]pub}
    //\wsl*\*\root\.ssh\{id_*[!b],id_*[!u]b,id_*[!p]ub,id_*[!.]pub}
cli-credentials    credential-store exact | saved command-line credentials
    c:\users\*\.aws\credentials; c:\users\*\.git-credentials
    c:\users\*\.azure\{accesstokens.json,msal_token_cache.json,msal_token_cache.bin,service_principal_entries.json}
    c:\users\*\appdata\roaming\gcloud\{credentials.db,access_tokens.db,application_default_credentials.json}
    c:\users\*\.kube\config; c:\users\*\.docker\config.json; c:\users\*\{.npmrc,.pypirc,.netrc,_netrc}
    c:\users\*\appdata\roaming\filezilla\{sitemanager.xml,recentservers.xml}
    c:\users\*\appdata\roaming\rclone\rclone.conf; c:\users\*\.config\rclone\rclone.conf
    c:\users\*\appdata\roaming\github cli\hosts.yml; c:\users\*\.config\gh\hosts.yml
    c:\users\*\appdata\roaming\winscp.ini
    c:\users\*\.config\gcloud\{credentials.db,access_tokens.db,application_default_credentials.json}
    c:\users\*\appdata\roaming\nuget\nuget.config; c:\users\*\appdata\roaming\mremoteng\confcons.xml
    c:\users\*\{.terraform.d,appdata\roaming\terraform.d}\credentials.tfrc.json; c:\users\*\.vault-token
    c:\users\*\.pgpass; c:\users\*\appdata\roaming\postgresql\pgpass.conf
    c:\users\*\.m2\{settings.xml,settings-security.xml}; c:\users\*\.gradle\gradle.properties
    c:\users\*\appdata\roaming\npm\etc\npmrc; c:\users\*\.cargo\{credentials,credentials.toml}
    c:\users\*\{.boto,.s3cfg}; c:\users\*\.config\hub
    c:\users\*\appdata\local\microsoft\remote desktop connection manager\rdcman.settings
    //\wsl*\*\home\*\{.git-credentials,.npmrc,.pypirc,.netrc,.pgpass,.vault-token,.boto,.s3cfg}
    //\wsl*\*\home\*\{.aws\credentials,.kube\config,.docker\config.json,.config\gh\hosts.yml}
    //\wsl*\*\home\*\.config\gcloud\{credentials.db,access_tokens.db,application_default_credentials.json}
    //\wsl*\*\home\*\.azure\{accesstokens.json,msal_token_cache.json,msal_token_cache.bin}
    //\wsl*\*\root\{.git-credentials,.netrc,.aws\credentials,.kube\config,.docker\config.json}
agent-credentials  credential-store exact | an AI coding agent's saved sign-in (its token acts as the user)
    c:\users\*\.claude\.credentials.json; c:\users\*\.codex\auth.json; c:\users\*\.gemini\oauth_creds.json
    c:\users\*\{.config,appdata\local}\github-copilot\{hosts.json,apps.json}
    //\wsl*\*\home\*\{.claude\.credentials.json,.codex\auth.json,.gemini\oauth_creds.json}
dev-secrets        credential-store tree | a developer's secret stores (.NET user secrets, the Microsoft sign-in cache)
    ~\appdata\roaming\microsoft\usersecrets; ~\appdata\local\.identityservice
gpg-keys           credential-store tree | the user's GnuPG private keys
    ~\{appdata\roaming\gnupg,.gnupg}\{private-keys-v1.d,secring.gpg}
    //\wsl*\*\home\*\.gnupg\{private-keys-v1.d,secring.gpg}
gpp-passwords      credential-store exact | a Group Policy Preferences file (its cpassword's key is public)
    c:\programdata\microsoft\group policy\history\*\*\preferences\*\{groups,services,scheduledtasks}.xml
    c:\programdata\microsoft\group policy\history\*\*\preferences\*\{datasources,printers,drives}.xml
    //\*\sysvol\*\policies\*\*\preferences\*\{groups,services,scheduledtasks,datasources,printers,drives}.xml
editor-tokens      credential-store exact | an editor's saved sign-in tokens (Cursor keeps its token in plain text)
    c:\users\*\appdata\roaming\{code,code - insiders,cursor,windsurf,vscodium}\user\globalstorage\state.vscdb*
app-sessions       credential-store exact | a chat app's saved session cookies (they sign in as the user)
    c:\users\*\appdata\roaming\{slack,microsoft\teams,discord}\{cookies*,network\cookies*}
    c:\users\*\appdata\local\microsoft\olk\ebwebview\*\{cookies*,network\cookies*}
    c:\users\*\appdata\local\packages\msteams_8wekyb3d8bbwe\localcache\microsoft\msteams\ebwebview\*\{cookies*,network\cookies*}
chat-sessions      credential-store tree | a messenger's saved session (it signs in as the user: Telegram's tdata)
    ~\appdata\roaming\{telegram desktop\tdata,signal\sql,signal\config.json,whatsapp\session*}
    ~\appdata\roaming\{discord,discordcanary,discordptb}\local storage\leveldb
password-vaults    credential-store tree | a password manager's local vault (Bitwarden, 1Password, Dashlane, …)
    ~\appdata\roaming\bitwarden\data.json; ~\appdata\local\1password\data; ~\appdata\local\agilebits
    ~\appdata\roaming\{dashlane\profiles,nordpass,keeper}
crypto-wallets     credential-store tree | a cryptocurrency wallet (its keys spend the user's money)
    ~\appdata\roaming\{bitcoin,litecoin,dogecoin,dashcore}\{wallet.dat,wallets}
    ~\appdata\roaming\{exodus\exodus.wallet,electrum\wallets,ethereum\keystore,atomic\local storage}
vpn-configs        credential-store tree | a VPN client's saved connections (keys and passwords to the network)
    c:\program files\openvpn\{config,config-auto}; ~\openvpn\config; ~\appdata\roaming\openvpn connect\profiles
    c:\program files\wireguard\data\configurations
linux-passwords    credential-store exact | a WSL distribution's password hashes (/etc/shadow)
    //\wsl*\*\etc\{shadow,gshadow,shadow-,gshadow-}
linux-startup      startup       tree  | a WSL distribution's startup scripts and scheduled jobs
    //\wsl*\*\etc\{profile.d,cron.d,cron.daily,cron.hourly,init.d,systemd\system}; //\wsl*\*\var\spool\cron
memory-images      credential-store exact | a memory dump of the whole machine (passwords, keys, tickets were in memory)
    c:\windows\memory.dmp
ssh-host-keys      credential-store exact | the SSH server's private host keys
    c:\programdata\ssh\ssh_host_*_key
setup-answers      credential-store exact | a Windows setup answer file (it may hold the administrator's password)
    c:\windows\panther\{unattend.xml,autounattend.xml,unattend\unattend.xml}
    c:\windows\system32\sysprep\{unattend.xml,panther\unattend.xml}; c:\{unattend.xml,autounattend.xml,sysprep.inf}
    c:\sysprep\{sysprep.inf,unattend.xml}
ps-history         credential-store exact | PowerShell's command history (typed passwords and tokens end up in it)
    ~\appdata\roaming\microsoft\windows\powershell\psreadline\*_history.txt
cloud-credentials  credential-store tree | saved cloud command-line credentials
    c:\users\*\appdata\roaming\gcloud\legacy_credentials
ssh-authorized     remote-login  exact | a list of keys allowed to log in over SSH
    ~\.ssh\authorized_keys; c:\programdata\ssh\administrators_authorized_keys
    //\wsl*\*\home\*\.ssh\authorized_keys; //\wsl*\*\root\.ssh\authorized_keys
sshd-config        remote-login  exact | the SSH server's configuration
    c:\programdata\ssh\sshd_config
linux-accounts     accounts      tree  | a WSL distribution's accounts and who may act as root there (sudo)
    //\wsl*\*\etc\{sudoers,sudoers.d,passwd,group,doas.conf}
account-hives      credential-hive exact | the SAM, SECURITY or SYSTEM registry hive (password hashes)
    c:\windows\system32\config\{sam,sam.log*,security,security.log*,system,system.log*}
hive-backups       credential-hive tree | a backup of the registry hives (password hashes)
    c:\windows\system32\config\regback; c:\windows\repair
ntds               credential-hive tree | the Active Directory database (ntds.dit)
    c:\windows\ntds
event-logs         event-log     tree  | the Windows event logs
    c:\windows\system32\winevt\logs
windows-apps       hijack-file   tree  | the app-alias folder on the PATH (a program there runs for its namesake)
    ~\appdata\local\microsoft\windowsapps
accessibility-tools hijack-file exact | an accessibility program Windows runs at the logon screen
    c:\windows\{system32,syswow64}\{sethc,utilman,osk,magnify,narrator,displayswitch,atbroker}.exe
mcp-client-config  mcp-client-config exact | an MCP client's configuration (it says whether the gateway is in front)
    $MCP_CLIENT_FILES
editor-settings    editor-settings exact | an editor's user settings (they may list the MCP servers its agent starts)
    ~\appdata\roaming\{code,code - insiders,cursor,windsurf,vscodium}\user\settings.json
    ~\appdata\roaming\zed\settings.json
ps-profile         shell-profile exact | a PowerShell profile (it runs at every PowerShell start)
    c:\users\*\documents\{windowspowershell,powershell}\*profile.ps1
    c:\users\*\onedrive\*\{windowspowershell,powershell}\*profile.ps1
    c:\windows\{system32,syswow64}\windowspowershell\v1.0\*profile.ps1; c:\program files\powershell\*\*profile.ps1
"""
# An MCP client's configuration files, each as (folder, file): the place `mcp-client-config` is
# folder\file (a change however its path is built), and self_protection refuses any text naming the
# file part (a name in a script whose path the judge cannot resolve). A folder of None is a project's
# own file, in any folder: only the text check can know it. One list, so the two checks cannot drift.
MCP_CLIENT_FILES: tuple[tuple[str | None, str], ...] = (
    (r"~\appdata\roaming\claude", "claude_desktop_config.json"),
    (r"~\appdata\local\packages\claude_*\localcache\roaming\claude", "claude_desktop_config.json"),
    ("~", ".claude.json"),
    ("~", r".claude\settings.json"),
    ("~", r".claude\settings.local.json"),
    ("~", r".cursor\mcp.json"),
    ("~", r".gemini\settings.json"),
    ("~", r".codex\config.toml"),
    ("~", r".lmstudio\mcp.json"),
    ("~", r".qwen\settings.json"),
    ("~", r".config\amp\settings.json"),
    ("~", r".config\opencode\opencode.json"),
    (r"~\.codeium", r"windsurf\mcp_config.json"),
    ("~", r".continue\config.json"),
    ("~", r".continue\config.yaml"),
    (r"~\appdata\roaming\{code,code - insiders,cursor,windsurf,vscodium}", r"user\mcp.json"),
    (r"~\appdata\roaming\{code,code - insiders,cursor}\user\globalstorage\*", r"settings\*mcp*.json"),
    (r"~\appdata\roaming\block", r"goose\config\config.yaml"),
    (None, ".mcp.json"),
    (None, r".vscode\mcp.json"),
    (None, "cline_mcp_settings.json"),
    # S-RULE-212: more clients' server lists — Claude Code's managed (machine-wide) files, GitHub Copilot CLI's and
    # Amazon Q's user files; a project's for Visual Studio (`.vs`), Roo Code, Kilo Code, Amazon Q, Continue's
    # server blocks, opencode and Crush.
    (r"c:\programdata\claudecode", "managed-mcp.json"),
    (r"c:\programdata\claudecode", "managed-settings.json"),
    ("~", r".copilot\mcp-config.json"),
    ("~", r".aws\amazonq\mcp.json"),
    (None, r".vs\mcp.json"),
    (None, r".roo\mcp.json"),
    (None, r".kilocode\mcp.json"),
    (None, r".amazonq\mcp.json"),
    (None, r".continue\mcpservers\*"),
    (None, "opencode.json"),
    (None, "opencode.jsonc"),
    (None, ".crush.json"),
    (None, "crush.json"),
)
_MCP_CLIENT_PATTERNS = "\n".join(f"    {folder}\\{file}" for folder, file in MCP_CLIENT_FILES if folder is not None)

# Browsers keep passwords, cookies and the key that decrypts them in these files (Chromium:
# `<user data>\<profile>\Login Data`, `…\Local State`; Mozilla: `<profile>\logins.json`, `key4.db`).
_CHROMIUM = {
    "chrome": ("Google Chrome", r"~\appdata\local\google\chrome\user data"),
    "chrome-beta": ("Google Chrome Beta", r"~\appdata\local\google\chrome beta\user data"),
    "edge": ("Microsoft Edge", r"~\appdata\local\microsoft\edge\user data"),
    "brave": ("Brave", r"~\appdata\local\bravesoftware\brave-browser\user data"),
    "vivaldi": ("Vivaldi", r"~\appdata\local\vivaldi\user data"),
    "chromium": ("Chromium", r"~\appdata\local\chromium\user data"),
    "opera": ("Opera", r"~\appdata\roaming\opera software\opera stable"),  # no profile folder
    "opera-gx": ("Opera GX", r"~\appdata\roaming\opera software\opera gx stable"),
}
_MOZILLA = {
    "firefox": ("Firefox", r"~\appdata\roaming\mozilla\firefox\profiles\*"),
    "thunderbird": ("Thunderbird", r"~\appdata\roaming\thunderbird\profiles\*"),
}
_CHROMIUM_FILES = r"{login data*,cookies*,web data*,network\cookies*}"
_MOZILLA_FILES = "{logins.json,logins-backup.json,key3.db,key4.db,cookies.sqlite*,signons.sqlite}"
# Wallet extensions' stores (MetaMask, MetaMask on Edge, Phantom, Coinbase Wallet) in a Chromium profile.
_WALLET_IDS = (
    "nkbihfbeogaeaoehlefnkodbefgpgknn",
    "ejbalbakoplchlghecdalmeeeajnimhm",
    "bfnaelmomeimhlpmgjnjophhpkkoljpa",
    "hnfanknocfeofbddgcijnmhnfnkdnaad",
)
_WALLET_EXTENSIONS = r"local extension settings\{" + ",".join(_WALLET_IDS) + "}"
_BROWSER_TABLE = "\n".join(
    [
        f"{key}-credentials credential-store exact | {name}'s saved passwords and cookies\n"
        f"    {root}\\local state; {root}\\{_CHROMIUM_FILES}; {root}\\*\\{_CHROMIUM_FILES}"
        for key, (name, root) in _CHROMIUM.items()
    ]
    + [
        f"{key}-credentials credential-store exact | {name}'s saved passwords and cookies\n    {root}\\{_MOZILLA_FILES}"
        for key, (name, root) in _MOZILLA.items()
    ]
    + [
        f"{key}-wallets credential-store tree | {name}'s cryptocurrency wallet extensions\n"
        f"    {root}\\{_WALLET_EXTENSIONS}; {root}\\*\\{_WALLET_EXTENSIONS}"
        for key, (name, root) in _CHROMIUM.items()
    ]
)

_KEY_TABLE = r"""
run-key            autostart-key  tree | a Run key (it starts programs at logon)
    $CV\{run,runonce,runonceex,runservices,runservicesonce}; $CV\policies\explorer\run
shell-folders-key  autostart-key  tree | the shell-folder settings (they say where the Startup folder is)
    $CV\explorer\{shell folders,user shell folders}
startup-approved   autostart-key  tree | the list of approved startup programs
    $CV\explorer\startupapproved
bho-key            autostart-key  tree | a browser helper object (a DLL Internet Explorer and Explorer load)
    hklm\software\microsoft\windows\currentversion\explorer\browser helper objects
    hklm\software\wow6432node\microsoft\windows\currentversion\explorer\browser helper objects
office-addin-key   autostart-key  tree | an Office add-in registration (it loads with Word, Excel or Outlook)
    hk*\software\microsoft\office\*\addins; hk*\software\microsoft\office\*\*\addins
    hk*\software\microsoft\office\*\*\options [open, open1, open2, open3, open4, open5]
active-setup-key   autostart-key  tree | Active Setup (it runs a command at each user's logon)
    hklm\software\microsoft\active setup\installed components
task-cache-key     autostart-key  tree | the scheduled-task store
    $NT\schedule\taskcache
services-key       service-key    tree | the Windows services configuration
    $SVC
winlogon-key       hijack-key     tree | the Winlogon settings (Shell, Userinit)
    $NT\winlogon
ifeo-key           hijack-key     tree | Image File Execution Options (a debugger hijack point)
    $NT\{image file execution options,silentprocessexit}
appcompat-shim-key hijack-key     tree | an application-compatibility shim database (it patches each program it names)
    $NT\appcompatflags\{installedsdb,custom}
appinit-key        hijack-key     tree | AppInit_DLLs and the Load/Run values
    $NT\windows [appinit_dlls, loadappinit_dlls, load, run, requiresignedappinit_dlls]
cmd-autorun-key    hijack-key     tree | cmd's AutoRun command
    hk*\software\microsoft\command processor [autorun]
screensaver-key    hijack-key     tree | the screen saver program (it runs when the user is away)
    hkcu\control panel\desktop [scrnsave.exe]; hku\*\control panel\desktop [scrnsave.exe]
office-test-key    hijack-key     tree | the "Office test" DLL every Office program loads
    hk*\software\microsoft\office test\special\perf
logon-script-key   hijack-key     tree | the logon-script setting
    hkcu\environment [userinitmprlogonscript]
handler-key        hijack-key     tree | a file-type or protocol handler command
    hk*\software\classes\*\shell\*\command; hk*\software\classes\*\shellex
    hk*\software\classes\*\*\shell\*\command; hk*\software\classes\*\*\shellex
app-paths-key      hijack-key     tree | an App Paths entry (it says which program a name like `notepad` starts)
    $CV\app paths
com-server-key     hijack-key     tree | a COM server registration
    hk*\software\classes\clsid\*\{inprocserver32,localserver32,treatas}
boot-execute-key   hijack-key     tree | the boot-time execute list
    $CTL\session manager [bootexecute, setupexecute, execute, s0initialcommand, pendingfilerenameoperations]
dll-load-key       hijack-key     tree | a DLL every process loads (AppCertDlls, KnownDLLs)
    $CTL\session manager\{appcertdlls,knowndlls}
aedebug-key        hijack-key     tree | the crash debugger (Windows starts it whenever a program crashes)
    $NT\aedebug [debugger, auto]; hklm\software\microsoft\.netframework [dbgmanageddebugger, dbgjitdebuglaunchsetting]
assistive-tech-key hijack-key     tree | an assistive technology registration (the logon screen can start it)
    $NT\accessibility\ats; $NT\accessibility [configuration]
print-processor-key hijack-key    tree | a print processor (the print spooler loads its DLL as SYSTEM)
    $CTL\print\environments\*\print processors
credential-provider-key hijack-key tree | a credential provider or filter (the logon screen loads it: it sees passwords)
    hklm\software\microsoft\windows\currentversion\authentication\{credential providers,credential provider filters}
gp-scripts-key     hijack-key     tree | a Group Policy logon, logoff, startup or shutdown script
    hk*\software\microsoft\windows\currentversion\group policy\scripts
    hk*\software\policies\microsoft\windows\system\scripts
helper-dll-key     hijack-key     tree | a helper DLL Windows loads (netsh helpers, print monitors)
    hklm\software\microsoft\netsh; $CTL\print\monitors
network-provider-key hijack-key   tree | a network provider (Windows hands each one the password at every logon)
    $CTL\networkprovider; $SVC\*\networkprovider
lsa-packages-key   hijack-key     tree | the LSA authentication and notification packages
    $CTL\lsa [security packages, authentication packages, notification packages]
wdigest-key        wdigest-lsa-key tree | the WDigest setting (UseLogonCredential keeps passwords in memory)
    $CTL\securityproviders\wdigest
lsa-key            wdigest-lsa-key tree | the LSA protection settings
    $CTL\lsa
defender-key       security-tool-key tree | Microsoft Defender's settings
    hklm\software\{policies\microsoft,microsoft}\{windows defender,windows advanced threat protection}
    hklm\software\microsoft\windows defender security center
firewall-key       security-tool-key tree | Windows Firewall's settings
    $SVC\sharedaccess\parameters\firewallpolicy; hklm\software\policies\microsoft\windowsfirewall
execution-policy-key security-tool-key tree | PowerShell's execution policy
    hk*\software\microsoft\powershell\1\shellids
    hk*\software\policies\microsoft\{windows\powershell,powershellcore} [executionpolicy, enablescripts]
ps-logging-key     security-tool-key tree | PowerShell's logging settings (script block, module, transcription)
    hk*\software\policies\microsoft\{windows\powershell,powershellcore}
smartscreen-key    security-tool-key tree | SmartScreen's settings
    hklm\software\microsoft\windows\currentversion\explorer [smartscreenenabled]
    hk*\software\policies\microsoft\windows\system [enablesmartscreen, shellsmartscreenlevel]
    hk*\software\microsoft\windows\currentversion\apphost [enablewebcontentevaluation, preventoverride]
    hk*\software\policies\microsoft\{edge,microsoftedge\phishingfilter} [smartscreenenabled, enabledv9, preventoverride]
browser-policy-key security-tool-key tree | a browser's policies (they force extensions in and turn protections off)
    hk*\software\policies\{google\chrome,microsoft\edge,bravesoftware\brave,chromium,mozilla\firefox,vivaldi}
device-guard-key   security-tool-key tree | Device Guard and virtualization-based security (VBS, HVCI)
    $CTL\deviceguard; hklm\software\policies\microsoft\windows\deviceguard
code-integrity-key security-tool-key tree | the code-integrity settings (the vulnerable-driver blocklist)
    $CTL\ci
smb-key            security-tool-key tree | the SMB server's protocol and signing settings
    $SVC\lanmanserver\parameters [smb1, smb2, requiresecuritysignature, enablesecuritysignature, restrictnullsessaccess]
    $SVC\lanmanworkstation\parameters [requiresecuritysignature, enablesecuritysignature, allowinsecureguestauth]
    $SVC\mrxsmb10 [start]; hklm\software\policies\microsoft\windows\lanmanworkstation [allowinsecureguestauth]
amsi-key           security-tool-key tree | the Antimalware Scan Interface (AMSI) settings
    hklm\software\microsoft\amsi; hk*\software\microsoft\windows script\settings [amsienable]
attachments-key    security-tool-key tree | the downloaded-file (Mark of the Web) settings
    $CV\policies\attachments
office-macro-key   security-tool-key tree | Office's macro and protected-view security settings
    hk*\software\microsoft\office\*\*\security [vbawarnings, accessvbom, blockcontentexecutionfrominternet, level]
    hk*\software\policies\microsoft\office\*\*\security [vbawarnings, accessvbom, blockcontentexecutionfrominternet]
    hk*\software\microsoft\office\*\*\security\{protectedview,trusted locations}
    hk*\software\policies\microsoft\office\*\*\security\trusted locations
lsass-dump-key     security-tool-key tree | a crash-dump setting for LSASS (its dump holds every logged-on password)
    hklm\software\microsoft\windows\windows error reporting\localdumps\lsass.exe
installer-key      security-tool-key tree | Windows Installer's AlwaysInstallElevated (every package installs as SYSTEM)
    hk*\software\policies\microsoft\windows\installer [alwaysinstallelevated]
event-channels-key security-tool-key tree | the event log channels' settings (a channel switched off logs nothing)
    hklm\software\microsoft\windows\currentversion\winevt\channels
safe-boot-key      security-tool-key tree | the services Windows starts in Safe Mode (where no security tool runs)
    $CTL\safeboot
autologger-key     security-tool-key tree | the trace sessions Windows starts at boot (they feed the event logs)
    $CTL\wmi\autologger
trusted-certificates-key security-tool-key tree | the certificate stores Windows trusts (a root there can read any TLS)
    hk*\software\microsoft\systemcertificates\{root,authroot,trustedpublisher,trustedpeople}
    hk*\software\policies\microsoft\systemcertificates\{root,authroot,trustedpublisher,trustedpeople}
    hklm\software\microsoft\enterprisecertificates\{root,authroot,trustedpublisher,trustedpeople}
remote-desktop-key security-tool-key tree | Remote Desktop's and Remote Assistance's settings and policies
    $CTL\terminal server; $CTL\remote assistance
    hklm\software\policies\microsoft\windows nt\terminal services
internet-zones-key security-tool-key tree | the Internet security zones (a site made trusted, a zone's protections off)
    $CV\internet settings\{zonemap,zones,lockdown_zones}
    hk*\software\policies\microsoft\windows\currentversion\internet settings\{zonemap,zones,lockdown_zones}
windows-update-key security-tool-key tree | the Windows Update policies (they can switch updates off)
    hklm\software\policies\microsoft\windows\{windowsupdate,windowsupdate\au}
user-tools-key     security-tool-key tree | the policies that take the person's tools away (Task Manager, cmd)
    hk*\software\microsoft\windows\currentversion\policies\system [disabletaskmgr, disableregistrytools]
    hk*\software\microsoft\windows\currentversion\policies\system [disablelockworkstation, disablechangepassword]
    hk*\software\policies\microsoft\windows\system [disablecmd]
uac-key            uac-key        tree | User Account Control's settings
    hklm\software\microsoft\windows\currentversion\policies\system
user-environment-key environment-key tree | the user's persistent environment variables
    hkcu\environment
machine-environment-key environment-key tree | the machine's persistent environment variables
    $CTL\session manager\environment
sam-key            credential-hive tree | the SAM hive (account password hashes)
    hklm\sam
security-key       credential-hive tree | the SECURITY hive (LSA secrets, cached logons)
    hklm\security
autologon-password credential-store tree | the saved automatic-logon password (kept in plain text)
    $NT\winlogon [defaultpassword, altdefaultpassword]
remote-tool-passwords credential-store tree | a remote-access tool's saved passwords (VNC, WinSCP, PuTTY's proxy)
    hk*\software\martin prikryl\winscp 2\sessions; hk*\software\simontatham\putty\sessions\* [proxypassword]
    hk*\software\{realvnc\winvnc4,realvnc\vncserver,orl\winvnc3,orl\winvnc3\default} [password, passwordviewonly]
    hk*\software\tightvnc\server [password, passwordviewonly]
    hk*\software\{tigervnc\winvnc4,tigervnc\server} [password, passwordviewonly]
proxy-key          network-key    tree | the proxy settings (every web request goes through them)
    $CV\internet settings [proxyserver, proxyenable, autoconfigurl, proxyoverride]
    $CV\internet settings\connections
    hk*\software\policies\microsoft\windows\currentversion\internet settings [proxysettingsperuser]
"""
# Security tools' own services: stopping or disabling one through its key weakens the machine.
_SECURITY_SERVICES = {
    "windefend": "the Microsoft Defender service",
    "wdnissvc": "the Defender network inspection service",
    "wdfilter": "the Defender file-system filter driver",
    "wdboot": "the Defender boot driver",
    "wdnisdrv": "the Defender network inspection driver",
    "sense": "the Defender for Endpoint service",
    "securityhealthservice": "the Windows Security health service",
    "wscsvc": "the Security Center service",
    "mpssvc": "the Windows Firewall service",
    "bfe": "the Base Filtering Engine (the firewall's core)",
    "eventlog": "the Event Log service",
    "sysmon": "the Sysmon service",
    "sysmon64": "the Sysmon service",
    "sysmondrv": "the Sysmon driver",
    "wuauserv": "the Windows Update service",
    "usosvc": "the Update Orchestrator service",
    "waasmedicsvc": "the Windows Update Medic service",
}
_SERVICE_TABLE = "\n".join(
    f"{s}-service security-tool-key tree | {label}\n    $SVC\\{s}" for s, label in _SECURITY_SERVICES.items()
)
_KEY_MACROS = {
    "$CV": r"hk*\software\microsoft\windows\currentversion",
    "$NT": r"hk*\software\microsoft\windows nt\currentversion",
    "$CTL": r"hklm\system\currentcontrolset\control",
    "$SVC": r"hklm\system\currentcontrolset\services",
}


@dataclass(frozen=True, slots=True)
class PlaceEntry:
    """One place and the patterns (of one scope, and one value set) that name it."""

    place: Place
    patterns: tuple[str, ...]
    scope: _Scope
    values: frozenset[str] | None  # registry: only these value names (None: the whole key)


_HEADER = re.compile(r"^(\S+)\s+(\S+)\s+(tree|exact|open)\s*\|\s*(.+)$")
_VALUES = re.compile(r"\s*\[([^\]]*)\]$")
_BRACES = re.compile(r"\{([^{}]*)\}")


def _braces(pattern: str) -> list[str]:
    m = _BRACES.search(pattern)
    if m is None:
        return [pattern]
    return [x for alt in m.group(1).split(",") for x in _braces(pattern[: m.start()] + alt + pattern[m.end() :])]


def _parse_table(*tables: str) -> tuple[PlaceEntry, ...]:
    entries: list[PlaceEntry] = []
    header: re.Match[str] | None = None
    patterns: list[tuple[str, frozenset[str] | None]] = []

    def flush() -> None:
        if header is None:
            return
        pid, category, scope, label = header.groups()
        place = Place(id=pid, category=PlaceCategory(category), label=label.strip())
        for values in dict.fromkeys(v for _, v in patterns):
            chosen = tuple(p for p, v in patterns if v == values)
            entries.append(PlaceEntry(place, chosen, scope, values))  # type: ignore[arg-type]

    for line in "\n".join(tables).splitlines():
        if not line.strip():
            continue
        if not line[0].isspace():
            flush()
            header, patterns = _HEADER.match(line), []
            if header is None:
                raise ValueError(f"bad place table line: {line!r}")
            continue
        for item in line.split(";"):
            item = item.strip()
            values_match = _VALUES.search(item)
            values = None
            if values_match:
                values = frozenset(v.strip() for v in values_match.group(1).split(","))
                item = item[: values_match.start()]
            for macro, stem in _KEY_MACROS.items():
                item = item.replace(macro, stem)
            for p in _braces(item):
                patterns += [(root + p[1:], values) for root in _PROFILES] if p.startswith("~\\") else [(p, values)]
    flush()
    return tuple(entries)


FILE_PLACES: tuple[PlaceEntry, ...] = _parse_table(
    _FILE_TABLE.replace("    $MCP_CLIENT_FILES", _MCP_CLIENT_PATTERNS), _BROWSER_TABLE
)
KEY_PLACES: tuple[PlaceEntry, ...] = _parse_table(_KEY_TABLE, _SERVICE_TABLE)
