"""Redaction (S-RED-01 … S-RED-07): what may reach the audit file.

Each corpus entry pairs a value with the secret substring inside it; the tests assert that
substring appears nowhere in the redacted output. Expected masks and shapes come from the
spec (spec/SYS_SPEC.md RED) and the upstream samples, not from running the code.
"""

from __future__ import annotations

import base64
import copy
import enum
import hashlib
import json
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gateway.audit.redact.scrub import typed_texts
from gateway.audit.redact.values import redact, redact_args, redact_text, summarize_result
from tests._requirements import SAMPLES, UPSTREAM_DATA, requirement

JWT = (
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0"
    ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
)

# Every secret-named key of the spec (S-RED-01), spelled the ways clients spell them.
SECRET_KEY_NAMES = [
    "authorization", "Authorization", "proxy-authorization", "Proxy_Authorization",
    "cookie", "Cookie", "set-cookie", "Set-Cookie",
    "session_id", "sessionid", "sessionId", "session-token", "SESSION_TOKEN",
    "api_key", "apikey", "apiKey", "x-api-key", "X-API-KEY",
    "access_key", "accessKey", "secret_access_key", "SecretAccessKey",
    "token", "Token", "access_token", "refresh_token", "id_token",
    "password", "Password", "passwd", "pwd", "passphrase",
    "secret", "client_secret", "clientSecret", "private_key", "privateKey",
    "jwt", "JWT", "bearer", "credential", "credentials", "signature",
    "github_token", "DB_PASSWORD", "aws-secret-access-key",
]  # fmt: skip

# (name, text containing the secret, the secret substring that must disappear) — S-RED-02/03.
SHAPES: list[tuple[str, str, str]] = [
    ("jwt", f"session {JWT} ok", JWT),
    ("jwt signature part", f"session {JWT} ok", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"),
    ("bearer", "the header was Bearer opaqueTok3nValue99 yesterday", "opaqueTok3nValue99"),
    ("basic", "sent Basic dXNlcjpwYXNzd29yZA== to the proxy", "dXNlcjpwYXNzd29yZA=="),
    (
        "base64 run",
        "blob U2VjcmV0S2V5TWF0ZXJpYWwxMjM0NTY3ODkwQUJDRA== end",
        "U2VjcmV0S2V5TWF0ZXJpYWwxMjM0NTY3ODkw",
    ),
    (
        "hex run",
        "key 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 end",
        "9f86d081884c7d659a2f",
    ),
    ("hex run 0x", "key 0x9F86D081884C7D659A2FEAA0C55AD015 end", "9F86D081884C7D659A2FEAA0C55AD015"),
    ("aws akia", "aws AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"),
    ("aws asia", "aws ASIAY34FZKBOKMUTVV7A here", "ASIAY34FZKBOKMUTVV7A"),
    (
        "github ghp",
        "git ghp_16C7e42F292c6912E7710c838347Ae178B4a x",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    ),
    ("github gho", "git gho_16C7e42F292c6912E7710c838347Ae178B4a x", "16C7e42F292c6912E7710c838347Ae178B4a"),
    (
        "github pat",
        "git github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvw x",
        "11ABCDEFG0123456789_abcdef",
    ),
    ("slack xoxb", "slack xoxb-123456789012-1234567890123-AbCdEfGhIjKl x", "1234567890123-AbCdEfGhIjKl"),
    ("slack xoxp", "slack xoxp-123456789012-AbCdEfGhIjKl x", "123456789012-AbCdEfGhIjKl"),
    ("slack xoxa", "slack xoxa-2-123456789012-AbCdEfGh x", "123456789012-AbCdEfGh"),
    ("openai", "key sk-proj-AbCdEf0123456789GhIjKl x", "AbCdEf0123456789GhIjKl"),
    ("anthropic", "key sk-ant-api03-AbCdEf0123456789GhIjKlMnOp x", "AbCdEf0123456789GhIjKlMnOp"),
    ("google", "maps AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe x", "SyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe"),
    (
        "azure account key",
        "DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=abc+def/ghi==;EndpointSuffix=core.windows.net",
        "abc+def/ghi==",
    ),
    (
        "pem private key",
        "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhk\nsecretline\n-----END PRIVATE KEY-----",
        "secretline",
    ),
    (
        "openssh private key",
        "x -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY----- y",
        "b3BlbnNzaC1rZXktdjE",
    ),
    ("pem cut before its end", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7", "MIIEowIBAAKCAQEA7"),
    # command text (S-RED-03)
    (
        "ps headers jwt",
        f"Invoke-RestMethod -Uri https://api.example.com/v1 -Headers @{{Authorization='Bearer {JWT}'}}",
        JWT,
    ),
    (
        "ps headers opaque",
        "Invoke-RestMethod -Headers @{Authorization='Bearer opaqueTok3n'} -Uri https://x",
        "opaqueTok3n",
    ),
    ("ps hashtable api key", 'iwr https://x -Headers @{"X-Api-Key"="hashKey42"}', "hashKey42"),
    ("-Token", "gh auth login -Token abc123def456 -Verbose", "abc123def456"),
    ("-Password quoted", "Connect-Service -Password 'Hunter2!pw' -User bob", "Hunter2!pw"),
    ("-ApiKey", "New-Thing -ApiKey k3y-material-42", "k3y-material-42"),
    ("-AccessToken", "Connect-AzAccount -AccessToken accTok99", "accTok99"),
    ("--password=", "mysql --password=Tr0ub4dor -u root", "Tr0ub4dor"),
    ("--api-key=", "tool --api-key=zzTopSecret99", "zzTopSecret99"),
    ("-Credential", "Enter-PSSession -Credential MyCr3dential", "MyCr3dential"),
    ("securestring", "$p = ConvertTo-SecureString 'Plain$ecret1' -AsPlainText -Force", "Plain$ecret1"),
    ("securestring -String", 'ConvertTo-SecureString -String "pa;ss|w0rd" -AsPlainText', "pa;ss|w0rd"),
    ("securestring bare", "ConvertTo-SecureString bareS3cret -AsPlainText -Force", "bareS3cret"),
    ("header in curl", "curl -H 'Authorization: Bearer opaqueHeaderTok3n' https://x", "opaqueHeaderTok3n"),
    ("header line", "Authorization: Token tokV4lue\nHost: x", "tokV4lue"),
    ("curl -u", "curl -u alice:curlPassw0rd https://x", "curlPassw0rd"),
    ("conn password", "Server=db;Database=app;User Id=sa;Password=conn pass 123;", "pass 123"),
    ("conn pwd", "Driver={SQL Server};Server=db;Uid=sa;Pwd=pwdValue77;", "pwdValue77"),
    ("url credentials", "git clone https://bob:urlPassw0rd@example.com/repo", "urlPassw0rd"),
    ("query token", "GET https://x/cb?access_token=qTok3n&state=1", "qTok3n"),
    ("env assignment", "$env:API_KEY = 'envKeyValue1'", "envKeyValue1"),
    ("json in text", '{"client_secret": "jsonSecretValue", "user": "bob"}', "jsonSecretValue"),
    ("cookie header", "Cookie: sid=cookieValue123; theme=dark", "cookieValue123"),
    ("cookie header second cookie", "Cookie: theme=dark; sid=otherCookieVal", "otherCookieVal"),
    ("chunked base64 blob", "data " + "QUJDRA==" * 40 + " end", "QUJDRA==QUJDRA==QUJDRA=="),
    ("data uri", "img data:image/png;base64,iVBORw0KGgo= end", "iVBORw0KGgo="),
]


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


@requirement("S-RED-01")
@pytest.mark.parametrize("key", SECRET_KEY_NAMES)
def test_secret_named_keys_are_redacted_at_any_depth(key: str) -> None:
    """S-RED-01: a secret-named key loses its value in a flat dict, nested dicts and lists."""
    secret = f"v4lue-of-{key}"
    value = {key: secret, "outer": [{"inner": {key: secret}}, [{key: [secret]}]], "keep": "visible"}
    out = redact(value)
    assert secret not in _dump(out)
    assert out[key] == "[REDACTED]"
    assert out["outer"][0]["inner"][key] == "[REDACTED]"
    assert out["keep"] == "visible"


@requirement("S-RED-01")
def test_a_name_value_pair_with_a_secret_name_hides_the_value() -> None:
    """S-RED-01: {"name": "Password", "value": x} (a registry value, a HAR header) hides x."""
    args = {"mode": "set", "path": "HKCU:\\Software\\App", "name": "Password", "value": "regSecretValue"}
    out = redact_args("Registry", args)
    assert out["value"] == "[REDACTED]"
    assert out["name"] == "Password" and out["path"] == "HKCU:\\Software\\App"
    headers = [{"name": "Authorization", "value": "Basic Zm9vOmJhcg=="}, {"name": "Accept", "value": "*/*"}]
    assert redact(headers) == [
        {"name": "Authorization", "value": "[REDACTED]"},
        {"name": "Accept", "value": "*/*"},
    ]


@requirement("S-RED-02", "S-RED-03")
@pytest.mark.parametrize(("name", "text", "secret"), SHAPES, ids=[s[0] for s in SHAPES])
def test_secret_shaped_values_are_masked_in_text_and_nested_structures(name: str, text: str, secret: str) -> None:
    """S-RED-02, S-RED-03: a secret shape inside a string is masked wherever the string sits."""
    assert secret in text  # the corpus itself is sound
    flat = redact_text(text)
    assert secret not in flat
    assert "[REDACTED" in flat
    nested = redact({"a": [text, {"b": (text,)}], "c": {"d": {"e": text}}})
    assert secret not in _dump(nested)


@requirement("S-RED-02")
@pytest.mark.parametrize(
    ("text", "label"),
    [
        (f"x {JWT} y", "[REDACTED:jwt]"),
        ("AKIAIOSFODNN7EXAMPLE", "[REDACTED:aws_key_id]"),
        ("ghp_16C7e42F292c6912E7710c838347Ae178B4a", "[REDACTED:github_token]"),
        ("-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----", "[REDACTED:private_key]"),
        ("digest 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", "[REDACTED:hex]"),
        ("Bearer opaqueTok3nValue99", "Bearer [REDACTED:bearer]"),
        ("maps AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe", "[REDACTED:google_api_key]"),
        ("-Password 'x y'", "-Password [REDACTED:password]"),
    ],
)
def test_a_mask_says_what_was_masked(text: str, label: str) -> None:
    """S-RED-02: the mask names the kind of secret, e.g. [REDACTED:jwt]."""
    assert label in redact_text(text)


@requirement("S-RED-07")
@pytest.mark.parametrize(
    "text",
    [
        "notes.txt - Notepad",
        "Example Domain - Google Chrome",
        "C:/Users/Alice/AppData/Local/Programs/Microsoft VS Code/Code.exe",
        "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
        "Get-ChildItem -Path C:/Temp -Recurse | Sort-Object Length",
        "Open the basic settings page; the bearer of good news arrived",
        "Single left clicked at (640,480).",
        "{3F2504E0-4F89-11D3-9A0C-0305E82C3301}",
        "Get-Process -Name notepad -ErrorAction SilentlyContinue",
        "Start-Process notepad.exe -PassThru",
        "ctrl+shift+esc",
    ],
)
def test_ordinary_text_is_not_masked(text: str) -> None:
    """S-RED-07: titles, paths, commands without secrets and prose stay readable."""
    assert redact_text(text) == text


@requirement("S-RED-07")
def test_every_upstream_sample_call_keeps_its_arguments() -> None:
    """S-RED-07: the ~50 real Windows-MCP calls in tool_outputs.json carry no secret and stay unchanged."""
    calls = json.loads((UPSTREAM_DATA / "tool_outputs.json").read_text(encoding="utf-8"))
    assert len(calls) > 40
    for call in calls:
        assert redact_args(call["tool"], call["arguments"]) == call["arguments"], call["tool"]


@requirement("S-RED-04")
def test_type_into_a_password_field_keeps_only_the_length() -> None:
    """S-RED-04: Type's text becomes [REDACTED password field: N chars]; other args stay."""
    args = {"loc": [800, 520], "text": "correct horse", "clear": True}
    out = redact_args("Type", args, password_field=True)
    assert out == {"loc": [800, 520], "text": "[REDACTED password field: 13 chars]", "clear": True}
    assert redact_args("Type", args)["text"] == "correct horse"  # not a password field: kept


@requirement("S-RED-04")
@pytest.mark.parametrize(
    "args",
    [
        {"locs": [[800, 520, "pw-one"], [900, 520, "pw-two!"]]},
        {"locs": json.dumps([[800, 520, "pw-one"], [900, 520, "pw-two!"]])},
        {"labels": [[0, "pw-one"], [3, "pw-two!"]]},
    ],
)
def test_multiedit_into_a_password_field_keeps_only_lengths(args: dict[str, Any]) -> None:
    """S-RED-04: each MultiEdit text (locs rows [x,y,text], labels rows [label,text]) is masked."""
    out = _dump(redact_args("MultiEdit", args, password_field=True))
    assert "pw-one" not in out and "pw-two!" not in out
    assert "[REDACTED password field: 6 chars]" in out and "[REDACTED password field: 7 chars]" in out
    assert set(typed_texts("MultiEdit", args)) == {"pw-one", "pw-two!"}


@requirement("S-RED-04")
def test_the_typed_echo_in_a_result_can_be_scrubbed() -> None:
    """S-RED-04: upstream echoes typed text ("Typed … at"); summarize_result scrubs given literals."""
    call = next(c for c in json.loads((UPSTREAM_DATA / "tool_outputs.json").read_text()) if c["tool"] == "Type")
    typed = typed_texts("Type", call["arguments"])
    summary = summarize_result(call["result"], secrets=typed)
    assert call["arguments"]["text"] not in _dump(summary)
    assert "[REDACTED password field]" in _dump(summary)


def _sample_with_image(stem: str) -> tuple[dict[str, Any], bytes]:
    doc = json.loads((SAMPLES / f"{stem}.result.json").read_text(encoding="utf-8"))
    png = (SAMPLES / f"{stem}.png").read_bytes()
    for item in doc["result"]["content"]:
        if item["type"] == "image":
            item["data"] = base64.b64encode(png).decode("ascii")
    return doc["result"], png


@requirement("S-RED-05")
def test_an_image_result_keeps_mime_size_and_digest_but_no_data() -> None:
    """S-RED-05: the image item of a real Snapshot becomes {mimeType, bytes, sha256}; no base64 stays."""
    result, png = _sample_with_image("02_snapshot_downscaled_2560x1440")
    summary = summarize_result(result)
    images = [item["image"] for item in summary["content"] if "image" in item]
    assert images == [{"mimeType": "image/png", "bytes": len(png), "sha256": hashlib.sha256(png).hexdigest()}]
    text = _dump(summary)
    assert base64.b64encode(png).decode("ascii")[:64] not in text
    longest_run = max((len(r) for r in __import__("re").findall(r"[A-Za-z0-9+/=]+", text)), default=0)
    assert longest_run <= 256
    assert summary["is_error"] is False


@requirement("S-RED-05")
def test_result_text_is_redacted_and_cut() -> None:
    """S-RED-05: text items are redacted and cut to 500 characters; a base64 blob never survives."""
    blob = base64.b64encode(bytes(range(256)) * 4).decode("ascii")
    result = {
        "content": [
            {"type": "text", "text": "Response: token=" + "A1b2" * 10 + "\n" + "line " * 400},
            {"type": "text", "text": "raw " + blob},
        ],
        "isError": True,
    }
    summary = summarize_result(result)
    first, second = summary["content"]
    assert len(first["text"]) <= 500 and "truncated" in first["text"]
    assert "A1b2A1b2" not in first["text"]
    assert blob[:100] not in second["text"]
    assert summary["is_error"] is True


@requirement("S-RED-05")
def test_structured_content_is_kept_only_when_it_adds_something() -> None:
    """S-RED-05: FastMCP's {"result": text} copy is dropped; other structured content is redacted."""
    same = {"content": [{"type": "text", "text": "ok"}], "structuredContent": {"result": "ok"}}
    assert "structured" not in summarize_result(same)
    other = {"content": [{"type": "text", "text": "ok"}], "structuredContent": {"api_key": "x", "n": 2}}
    assert summarize_result(other)["structured"] == {"api_key": "[REDACTED]", "n": 2}


@requirement("S-RED-06")
def test_long_strings_are_cut_with_their_length_noted() -> None:
    """S-RED-06: a string over 2,000 characters is cut to at most 2,000 and says how long it was."""
    text = "word " * 1000  # 5,000 chars
    out = redact_text(text)
    assert len(out) <= 2000
    assert "5000 chars" in out
    assert redact_text("short") == "short"


@requirement("S-RED-06")
def test_redaction_returns_a_new_structure_and_leaves_the_input_alone() -> None:
    """S-RED-06: the input is not modified; the output is a new structure."""
    value = {"password": "p", "list": [{"token": "t"}], "cmd": "-Token abc123"}
    before = copy.deepcopy(value)
    out = redact(value)
    assert value == before
    assert out is not value and out["list"] is not value["list"]


class _Hostile:
    def __repr__(self) -> str:
        raise RuntimeError("no repr for you: hunter2")


class _Color(enum.Enum):
    RED = "red"


@dataclass
class _Point:
    x: int
    token: str


@requirement("S-RED-06")
def test_a_value_that_cannot_be_redacted_becomes_an_error_mask() -> None:
    """S-RED-06: a failure while redacting one value masks it as [REDACTED:error] or a stand-in, never raw."""
    cyclic: dict[str, Any] = {"a": 1}
    cyclic["self"] = cyclic
    value = {"hostile": _Hostile(), "cyclic": cyclic, "raw": b"\x00secret-bytes", "color": _Color.RED,
             "point": _Point(x=1, token="dcTok")}  # fmt: skip
    out = redact(value)
    text = _dump(out)
    assert "hunter2" not in text and "secret-bytes" not in text and "dcTok" not in text
    assert out["raw"] == {"bytes": 13, "sha256": hashlib.sha256(b"\x00secret-bytes").hexdigest()}
    assert out["color"] == "red"
    assert out["point"] == {"x": 1, "token": "[REDACTED]"}
    assert "too deep" in _dump(out["cyclic"])

    class _BadStr(str):
        def __len__(self) -> int:
            raise RuntimeError("boom")

    assert redact_text(_BadStr("Bearer abcdefgh12345")) == "[REDACTED:error]"


@requirement("S-RED-06")
@pytest.mark.parametrize(("name", "text", "secret"), SHAPES, ids=[s[0] for s in SHAPES])
def test_redacting_twice_changes_nothing(name: str, text: str, secret: str) -> None:
    """S-RED-06: redaction is idempotent, so the writer may redact what the pipeline already redacted."""
    once = redact({"command": text, "args": redact_args("Type", {"text": text}, password_field=True)})
    assert redact(once) == once


@requirement("S-RED-06")
@settings(max_examples=300, deadline=None)
@given(st.text(max_size=3000) | st.text(alphabet="AaBb0123+/=-_ :;'\"eyJ.", max_size=400))
def test_redact_text_never_raises_and_never_grows_past_the_cap(text: str) -> None:
    """S-RED-06: any text yields a string of at most 2,000 characters, without raising."""
    out = redact_text(text)
    assert isinstance(out, str) and len(out) <= 2000
    assert redact_text(out) == out
