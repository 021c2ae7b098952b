"""Uploads and network changes, pinned whole: kind, file sent and the phrase a reason quotes (S-RULE-30, -32).

Found by mutation testing of `policy/rules/effects_network.py`: the verdict tests pass whenever some
rule asks, so a handler could name the wrong file, drop one of several, or fire on a download or a
read-only form unnoticed. Each case is a command an agent could send through the PowerShell tool; a
download, a listing and a read of the network's state must send nothing and change nothing.
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import ps as _verdict

K = EffectKind
Row = tuple[EffectKind, str | None, str]
SHARE = r"\\files.example\drop"


def _effects(command: str, kinds: tuple[EffectKind, ...]) -> list[Row]:
    return [
        (e.kind, e.target, e.detail) for e in judge_call("PowerShell", {"command": command}).effects if e.kind in kinds
    ]


def _up(target: str | None, detail: str) -> Row:
    return (K.UPLOAD, target, detail)


UPLOADS: list[tuple[str, list[Row]]] = [
    (
        r"Invoke-WebRequest https://x.example/u -Method Post -InFile C:\Temp\a.zip",
        [_up(r"C:\Temp\a.zip", "Invoke-WebRequest -InFile")],
    ),
    (
        r"Invoke-RestMethod -Uri https://x.example/u -InFile C:\Temp\a.zip",
        [_up(r"C:\Temp\a.zip", "Invoke-RestMethod -InFile")],
    ),
    (r"Invoke-WebRequest https://x.example/u -OutFile C:\Temp\a.zip", []),
    (
        r"Start-BitsTransfer -Source C:\Temp\a.zip -Destination https://x.example/u -TransferType Upload",
        [
            _up(r"C:\Temp\a.zip", "Start-BitsTransfer -TransferType Upload"),
        ],
    ),
    (
        r"Start-BitsTransfer C:\Temp\a.zip https://x.example/u -TransferType UploadReply",
        [
            _up(r"C:\Temp\a.zip", "Start-BitsTransfer -TransferType Upload"),
        ],
    ),
    (r"Start-BitsTransfer -Source https://x.example/a.zip -Destination C:\Temp\a.zip -TransferType Download", []),
    (r"Start-BitsTransfer -Source https://x.example/a.zip -Destination C:\Temp\a.zip", []),
    (
        r"Send-MailMessage -To a@x.example -Subject hi -Attachments C:\Temp\a.zip,C:\Temp\b.zip -SmtpServer mx",
        [
            _up(r"C:\Temp\a.zip", "Send-MailMessage -Attachments"),
            _up(r"C:\Temp\b.zip", "Send-MailMessage -Attachments"),
        ],
    ),
    (r"Send-MailMessage -To a@x.example -Subject hi -SmtpServer mx", []),
    (r"Copy-Item C:\Temp\a.txt -Destination C:\dst -ToSession $s", [_up(r"C:\Temp\a.txt", "Copy-Item -ToSession")]),
    (
        r"Move-Item -LiteralPath C:\Temp\a.txt -Destination C:\dst -ToSession $s",
        [_up(r"C:\Temp\a.txt", "Move-Item -ToSession")],
    ),
    (r"Copy-Item C:\Temp\a.txt -Destination C:\dst -FromSession $s", []),
    (r"Copy-Item C:\Temp\a.txt -Destination C:\dst", []),
    # A copy to another machine's share sends the source; what lands there is written off the machine.
    (
        rf"Copy-Item C:\Temp\a.txt -Destination {SHARE}\a.txt",
        [
            _up(r"C:\Temp\a.txt", "Copy-Item to another machine"),
            _up(rf"{SHARE}\a.txt", "Copy-Item destination on another machine"),
        ],
    ),
    (
        rf"Move-Item C:\Temp\a.txt {SHARE}\ ",
        [
            _up(r"C:\Temp\a.txt", "Move-Item to another machine"),
            _up(SHARE + "\\", "Move-Item destination on another machine"),
        ],
    ),
    (rf"Copy-Item {SHARE}\a.txt C:\Temp\a.txt", []),
    (rf"Set-Content {SHARE}\x.txt hello", [_up(rf"{SHARE}\x.txt", "Set-Content on another machine")]),
    (r"Set-Content \\localhost\c$\Temp\x.txt hello", []),
    (
        rf"net use Z: {SHARE}; Copy-Item C:\Temp\a.txt Z:\a.txt",
        [
            _up(r"C:\Temp\a.txt", "Copy-Item to another machine"),
            _up(r"Z:\a.txt", "Copy-Item destination on another machine"),
        ],
    ),
    (r"net use Z: \\localhost\c$; Copy-Item C:\Temp\a.txt Z:\a.txt", []),
    (r"net use Z:; Copy-Item C:\Temp\a.txt Z:\a.txt", []),
    (
        rf"New-PSDrive -Name Q -PSProvider FileSystem -Root {SHARE}; Copy-Item C:\Temp\a.txt Q:\a.txt",
        [
            _up(r"C:\Temp\a.txt", "Copy-Item to another machine"),
            _up(r"Q:\a.txt", "Copy-Item destination on another machine"),
        ],
    ),
    (r"New-PSDrive -Name Q -PSProvider FileSystem -Root C:\Temp; Copy-Item C:\Temp\a.txt Q:\a.txt", []),
    (
        rf"New-PSDrive Q FileSystem {SHARE}; Copy-Item C:\Temp\a.txt Q:\a.txt",
        [
            _up(r"C:\Temp\a.txt", "Copy-Item to another machine"),
            _up(r"Q:\a.txt", "Copy-Item destination on another machine"),
        ],
    ),
    (
        rf"net1 use Z: {SHARE}; Copy-Item C:\Temp\a.txt Z:\a.txt",
        [
            _up(r"C:\Temp\a.txt", "Copy-Item to another machine"),
            _up(r"Z:\a.txt", "Copy-Item destination on another machine"),
        ],
    ),
    # Only `net use` and New-PSDrive map a drive: a registry value naming a share maps none (H: stays local).
    (rf"Set-ItemProperty HKCU:\Software\App Share {SHARE}; Copy-Item C:\Temp\a.txt H:\a.txt", []),
    (r"curl.exe -T C:\Temp\a.zip https://x.example/u", [_up(r"C:\Temp\a.zip", "curl upload")]),
    (r"curl.exe --upload-file C:\Temp\a.zip https://x.example/u", [_up(r"C:\Temp\a.zip", "curl upload")]),
    (r"curl.exe -F file=@C:\Temp\a.zip https://x.example/u", [_up(r"C:\Temp\a.zip", "curl upload")]),
    (
        r'curl.exe -F "file=@C:\Temp\a.zip;type=application/zip" https://x.example/u',
        [_up(r"C:\Temp\a.zip", "curl upload")],
    ),
    (r"curl.exe -F 'file=<C:\Temp\a.txt;type=text/plain' https://x.example/u", [_up(r"C:\Temp\a.txt", "curl upload")]),
    (r"curl.exe --form 'doc=@C:\Temp\a.pdf' https://x.example/u", [_up(r"C:\Temp\a.pdf", "curl upload")]),
    (r"curl.exe -F name=value https://x.example/u", []),
    (r"curl.exe -F $f https://x.example/u", [_up(None, "curl upload")]),
    (r"curl.exe -d '@C:\Temp\a.json' https://x.example/u", [_up(r"C:\Temp\a.json", "curl upload")]),
    (r"curl.exe --json '@C:\Temp\a.json' https://x.example/u", [_up(r"C:\Temp\a.json", "curl upload")]),
    (r"curl.exe --data-binary 'name@C:\Temp\a.bin' https://x.example/u", [_up(r"C:\Temp\a.bin", "curl upload")]),
    (r"curl.exe --data-urlencode 'q@C:\Temp\a.txt' https://x.example/u", [_up(r"C:\Temp\a.txt", "curl upload")]),
    # `@-` reads standard input, not a file; `a=b` is literal data.
    (r"curl.exe -d '@-' https://x.example/u", []),
    (r"curl.exe -d a=b https://x.example/u", []),
    (r"curl.exe -o C:\Temp\a.zip https://x.example/u", []),
    (r"wget.exe --post-file=C:\Temp\a.txt https://x.example/u", [_up(r"C:\Temp\a.txt", "wget upload")]),
    (r"wget.exe --body-file C:\Temp\a.txt https://x.example/u", [_up(r"C:\Temp\a.txt", "wget upload")]),
    (r"scp C:\Temp\a.txt bob@host.example:/tmp/", [_up(r"C:\Temp\a.txt", "scp to another machine")]),
    (
        r"scp -i C:\Users\bob\.ssh\id_ed25519 C:\Temp\a.txt host.example:a.txt",
        [_up(r"C:\Temp\a.txt", "scp to another machine")],
    ),
    (r"scp bob@host.example:/tmp/a.txt C:\Temp\ ", []),
    # A drive letter is one character: `C:\x` is this machine.
    (r"scp C:\Temp\a.txt D:\b.txt", []),
    # -o takes an option as its value: that word is no file.
    (
        r"scp -o StrictHostKeyChecking=no C:\Temp\a.txt bob@host.example:/tmp/",
        [_up(r"C:\Temp\a.txt", "scp to another machine")],
    ),
    # One remote host to another: nothing of this machine is sent.
    (r"scp bob@a.example:/tmp/a.txt bob@b.example:/tmp/", []),
    (
        r"pscp C:\Temp\a.txt C:\Temp\b.txt host.example:/tmp/",
        [
            _up(r"C:\Temp\a.txt", "pscp to another machine"),
            _up(r"C:\Temp\b.txt", "pscp to another machine"),
        ],
    ),
    (r"sftp host.example", []),
    (r"aws s3 cp C:\Temp\a.zip s3://bucket/a.zip", [_up(r"C:\Temp\a.zip", "aws s3 cp to another machine")]),
    (r"aws s3 sync --profile prod C:\Temp s3://bucket/", [_up(r"C:\Temp", "aws s3 sync to another machine")]),
    (r"aws s3 mv C:\Temp\a.zip s3://bucket/", [_up(r"C:\Temp\a.zip", "aws s3 mv to another machine")]),
    (r"aws s3 cp s3://bucket/a.zip C:\Temp\a.zip", []),
    (r"aws s3 cp s3://bucket/a.zip s3://other/a.zip", []),
    (r"aws s3 ls s3://bucket", []),
    (r"aws s3 cp C:\Temp\a.zip", []),
    (r"gsutil cp C:\Temp\a.zip gs://bucket/", [_up(r"C:\Temp\a.zip", "gsutil cp to another machine")]),
    (r"gsutil rsync C:\Temp gs://bucket/", [_up(r"C:\Temp", "gsutil rsync to another machine")]),
    (r"gcloud storage cp C:\Temp\a.zip gs://bucket/", [_up(r"C:\Temp\a.zip", "gcloud storage cp to another machine")]),
    (
        r"gcloud alpha storage cp C:\Temp\a.zip gs://bucket/",
        [_up(r"C:\Temp\a.zip", "gcloud alpha storage cp to another machine")],
    ),
    (
        r"azcopy copy C:\Temp\a.zip https://acct.blob.core.windows.net/c/a.zip",
        [_up(r"C:\Temp\a.zip", "azcopy copy to another machine")],
    ),
    (r"azcopy sync C:\Temp https://acct.blob.core.windows.net/c", [_up(r"C:\Temp", "azcopy sync to another machine")]),
    (r"rclone copy C:\Temp remote:backup", [_up(r"C:\Temp", "rclone copy to another machine")]),
    (
        r"rclone move C:\Temp\a C:\Temp\b remote:backup",
        [
            _up(r"C:\Temp\a", "rclone move to another machine"),
            _up(r"C:\Temp\b", "rclone move to another machine"),
        ],
    ),
    (r"rclone copy remote:backup C:\Temp", []),
    (r"rclone ls remote:backup", []),
    (r"az storage blob upload --file C:\Temp\a.zip --container-name c", [_up(r"C:\Temp\a.zip", "az storage upload")]),
    (r"az storage blob upload -f C:\Temp\a.zip -c c", [_up(r"C:\Temp\a.zip", "az storage upload")]),
    (r"az storage blob upload-batch --source C:\Temp -d c", [_up(r"C:\Temp", "az storage upload")]),
    (
        r"az storage file upload -s share --source C:\Temp\a.zip",
        [_up("share", "az storage upload"), _up(r"C:\Temp\a.zip", "az storage upload")],
    ),
    (r"az storage blob download --file C:\Temp\a.zip", []),
    (r"az vm upload --file C:\Temp\a.zip", []),
    (r"bitsadmin /transfer j /upload https://x.example/u C:\Temp\a.zip", [_up(r"C:\Temp\a.zip", "bitsadmin /upload")]),
    (r"bitsadmin /transfer j https://x.example/u C:\Temp\a.zip", []),
    (r"tftp -i host.example PUT C:\Temp\a.txt", [_up(r"C:\Temp\a.txt", "tftp put")]),
    (r"tftp host.example put", [_up(None, "tftp put")]),
    (r"tftp -i host.example GET a.txt", []),
    (
        r"(New-Object Net.WebClient).UploadFile('https://x.example/u', 'C:\Temp\a.zip')",
        [_up(r"C:\Temp\a.zip", "WebClient.UploadFile")],
    ),
    (
        r"(New-Object Net.WebClient).UploadFile('https://x.example/u', 'POST', 'C:\Temp\a.zip')",
        [
            _up(r"C:\Temp\a.zip", "WebClient.UploadFile"),
        ],
    ),
    (
        r"$w = New-Object Net.WebClient; $w.UploadFileAsync('https://x.example/u', 'C:\Temp\a.zip')",
        [
            _up(r"C:\Temp\a.zip", "WebClient.UploadFile"),
        ],
    ),
]


@requirement("S-RULE-30")
@pytest.mark.parametrize(("command", "expected"), UPLOADS, ids=[c for c, _ in UPLOADS])
def test_what_a_command_sends_off_the_machine(command: str, expected: list[Row]) -> None:
    """S-RULE-30: each local file a command uploads, once, with the phrase the reason quotes."""
    assert _effects(command, (K.UPLOAD,)) == expected
    hit = _verdict(command)
    if expected:  # asked at least (a download run or a credential store sent is refused outright)
        assert hit is not None and hit[1] in ("ask", "deny")
    else:
        assert hit is None or hit[0] != "upload-file"


CHANGES: list[tuple[str, list[Row]]] = [
    (r"route -f", [(K.NETWORK_CHANGE, None, "route -f")]),
    (r"route add 0.0.0.0 mask 0.0.0.0 10.0.0.1", [(K.NETWORK_CHANGE, None, "route add")]),
    (r"route DELETE 0.0.0.0", [(K.NETWORK_CHANGE, None, "route delete")]),
    (r"route change 0.0.0.0 mask 0.0.0.0 10.0.0.2", [(K.NETWORK_CHANGE, None, "route change")]),
    (r"route print", []),
    (r"route", []),
    (r"ipconfig /release", [(K.NETWORK_CHANGE, None, "ipconfig /release")]),
    (r"ipconfig /release6", [(K.NETWORK_CHANGE, None, "ipconfig /release")]),
    (r"ipconfig /renew", []),
    (r"ipconfig /all", []),
    (r"netsh winhttp set proxy proxy.example:8080", [(K.NETWORK_CHANGE, None, "netsh winhttp set proxy")]),
    (r"netsh winhttp reset proxy", [(K.NETWORK_CHANGE, None, "netsh winhttp reset proxy")]),
    (r"netsh winhttp show proxy", []),
    (r"netsh interface ip set dns Ethernet static 10.0.0.1", [(K.NETWORK_CHANGE, None, "netsh interface ip set dns")]),
    (
        r"netsh interface ipv4 add address Ethernet 10.0.0.9",
        [(K.NETWORK_CHANGE, None, "netsh interface ipv4 add address")],
    ),
    (r"netsh int set interface Ethernet disable", [(K.NETWORK_CHANGE, None, "netsh int set interface")]),
    (
        r"netsh interface portproxy add v4tov4 listenport=80 connectaddress=10.0.0.1",
        [
            (K.NETWORK_CHANGE, None, "netsh interface portproxy add"),
        ],
    ),
    (r"netsh interface portproxy show all", []),
    (r"netsh int ipv4 reset", [(K.NETWORK_CHANGE, None, "netsh int ipv4 reset")]),
    (r"netsh int tcp reset", [(K.NETWORK_CHANGE, None, "netsh int tcp reset")]),
    (r"netsh winsock reset", [(K.NETWORK_CHANGE, None, "netsh winsock reset")]),
    (r"netsh winsock show catalog", []),
    (r"netsh interface show interface", []),
    (r"netsh interface ip show config", []),
    (r"Disable-NetAdapter -Name Ethernet", [(K.NETWORK_CHANGE, None, "Disable-Netadapter")]),
    (
        r"Set-DnsClientServerAddress -InterfaceIndex 3 -ServerAddresses 10.0.0.1",
        [
            (K.NETWORK_CHANGE, None, "Set-Dnsclientserveraddress"),
        ],
    ),
    (r"Remove-NetRoute -DestinationPrefix 0.0.0.0/0", [(K.NETWORK_CHANGE, None, "Remove-Netroute")]),
    (r"New-SmbShare -Name share -Path C:\Users", [(K.NETWORK_CHANGE, None, "New-Smbshare")]),
    (
        r"Grant-SmbShareAccess -Name share -AccountName Everyone -AccessRight Full",
        [
            (K.NETWORK_CHANGE, None, "Grant-Smbshareaccess"),
        ],
    ),
    (r"Get-NetAdapter", []),
    (r"Get-SmbShare", []),
]


@requirement("S-RULE-32")
@pytest.mark.parametrize(("command", "expected"), CHANGES, ids=[c for c, _ in CHANGES])
def test_what_changes_how_the_machine_reaches_the_network(command: str, expected: list[Row]) -> None:
    """S-RULE-32: a change asks `network-change` with the command it was; reading the state gives nothing."""
    assert _effects(command, (K.NETWORK_CHANGE,)) == expected
    hit = _verdict(command)
    if expected:
        assert hit == ("network-change", "ask")
    else:
        assert hit is None


REMOTE: list[tuple[str, list[Row]]] = [
    (rf"cd {SHARE}; tool.exe", [(K.EXECUTE, rf"{SHARE}\tool", "started in another machine's folder")]),
    (
        rf"Set-Location -Path {SHARE}; tool.exe /s",
        [(K.EXECUTE, rf"{SHARE}\tool", "started in another machine's folder")],
    ),
    (rf"pushd {SHARE}; setup.exe", [(K.EXECUTE, rf"{SHARE}\setup", "started in another machine's folder")]),
    (rf"net use Z: {SHARE}; cd Z:\; tool.exe", [(K.EXECUTE, rf"{SHARE}\tool", "started in another machine's folder")]),
    (rf"tool.exe; cd {SHARE}", []),
    (rf"cd {SHARE}; cd C:\Temp; tool.exe", []),
    (r"Set-Location C:\Temp; tool.exe", []),
    (
        rf"Set-Location -LiteralPath {SHARE}; tool.exe",
        [(K.EXECUTE, rf"{SHARE}\tool", "started in another machine's folder")],
    ),
    (r"[Reflection.Assembly]::LoadFile('C:\Temp\x.dll')", [(K.EXECUTE, r"C:\Temp\x.dll", "Assembly.loadfile")]),
    (rf"[Reflection.Assembly]::LoadFrom('{SHARE}\x.dll')", [(K.EXECUTE, rf"{SHARE}\x.dll", "Assembly.loadfrom")]),
    (
        rf"[Reflection.Assembly]::UnsafeLoadFrom('{SHARE}\x.dll')",
        [(K.EXECUTE, rf"{SHARE}\x.dll", "Assembly.unsafeloadfrom")],
    ),
]


@requirement("S-RULE-31")
@pytest.mark.parametrize(("command", "expected"), REMOTE, ids=[c for c, _ in REMOTE])
def test_code_run_from_another_machines_folder(command: str, expected: list[Row]) -> None:
    """S-RULE-31: a program started in a share after `cd` into it, or a DLL loaded by path, runs that file."""
    assert _effects(command, (K.EXECUTE,)) == expected
