"""The README's configuration section and `config.example.toml`, generated from `KEYS` (S-CFG-05).

A key cannot be added, renamed or re-defaulted in one place only: both documents are
rendered from `gateway.config.load.KEYS`, and `check_docs` (run by tests/gateway/test_config_docs.py)
reports every difference — first by meaning (a key missing, extra or with another default,
naming it), then byte for byte. Regenerate after changing `KEYS`:

    python -m gateway.config.docs --write      # rewrites both files
    python -m gateway.config.docs --check      # exit 1 and the differences when stale

The README section lives between the marker lines `README_START` and `README_END` (added
at the end of README.md the first time); nothing outside them is ever touched.

`--write` and `--check` work in a source checkout only (they edit README.md and the repo's
`config.example.toml`); from an installed wheel they say so and exit 2. What an installed
gateway needs ships inside the package and is rendered from `KEYS` as well: the example as
`gateway/config/example.toml` (S-CFG-23, identical to the repo's), and the commented file
`winmcp-gateway init` writes (`render_init`, S-CLI-21).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gateway.config.keys import ENV_PREFIX, KEYS, MAX_OBSERVATION_AGE_CEILING_MS, Key

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
EXAMPLE = REPO / "config.example.toml"
# The copy inside the package, so an installed wheel has it (`gateway.config.load.packaged_example`).
PACKAGED_EXAMPLE = Path(__file__).with_name("example.toml")
README_START = "<!-- config-table:start -->"
README_END = "<!-- config-table:end -->"
_ROW = re.compile(r"^\| `([a-z_]+)` \| `(.*?)` \|")

# A custom rule shown (commented out) in the example; a test loads it with `load_rules`. A TOML
# 'literal string' needs no escaping of the regex's backslashes.
EXAMPLE_RULE = (
    '{ id = "ask-before-force-push", '
    r"""pattern = '(?:^|[\s;|&(])git(?:\.exe)?\spush\b[^;|&]*\s(?:--force|-f)\b', """
    'risk = "data-loss", reason = "A force push rewrites shared history; a person must approve it.", '
    'action = "ask", tools = ["PowerShell"] }'
)


def toml_value(value: Any) -> str:
    """A value as TOML writes it (also the README's default column)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):  # an inline table (the "table" keys)
        return "{ " + ", ".join(f"{k} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")  # pragma: no cover - KEYS holds only these


def _safe_text(key: Key) -> str:
    if key.safe_value == key.default:
        return "default"
    return key.safe_doc or toml_value(key.safe_value)


def _range(key: Key) -> str:
    if key.kind == "int":
        return f" Range {key.minimum}–{key.maximum}."
    if key.choices:
        return " One of " + ", ".join(f'"{c}"' for c in key.choices) + "."
    return ""


def render_readme_section(keys: Sequence[Key] = KEYS) -> str:
    """The README's `## Configuration` section, marker lines included.

    Args:
        keys: the key table (a modified copy in tests).

    Returns:
        The text from `README_START` to `README_END` with a final newline.
    """
    rows = [
        f"| `{k.name}` | `{toml_value(k.default)}` | {_safe_text(k)} | {k.doc.replace('|', chr(92) + '|')}{_range(k)} |"
        for k in keys
    ]
    body = f"""{README_START}
## Configuration

One TOML file with top-level keys (start from `config.example.toml`). Where a value comes from,
highest precedence first: command-line flags, the environment (`{ENV_PREFIX}<KEY>`, e.g.
`{ENV_PREFIX}MAX_OBSERVATION_AGE_MS=30000`; lists comma-separated or as a TOML array), the file
(`--config F`, else `WINMCP_GATEWAY_CONFIG`, else `config.toml` in the user config dir:
`%APPDATA%\\winmcp-gateway` on Windows), then the defaults below.

**Fail closed.** A value of the wrong type, out of range or not one of the choices is never guessed
at: the value in the "if unusable" column is used instead (the default, or the strictest choice where
the default is not), and a warning names the key, the value received and the value used. Unknown keys
are warned about and change nothing. Only `enforce`, `require_observation`,
`require_coordinate_mapping` and `require_process_match`, set explicitly to the boolean `false`, switch
a check of the gate off; `max_observation_age_ms` is a threshold of at most
{MAX_OBSERVATION_AGE_CEILING_MS} ms, not a switch. Warnings are printed to stderr at start, written to
the audit as `config` events, and listed by `winmcp_state` and `winmcp-gateway doctor`.

| key | default | if unusable | meaning |
|---|---|---|---|
{chr(10).join(rows)}

This section and `config.example.toml` are generated from `gateway/config/load.py`
(`python -m gateway.config.docs --write`); a test fails when they differ.
{README_END}
"""
    return body


def render_example(keys: Sequence[Key] = KEYS) -> str:
    """`config.example.toml`: every key with its default, so the file loads without a warning.

    Args:
        keys: the key table.

    Returns:
        The file's text.
    """
    out = [
        "# winmcp-gateway configuration — every key with its default value.",
        "# Generated from gateway/config/keys.py by `python -m gateway.config.docs --write`; do not edit by hand.",
        "# Copy to config.toml in your user config dir (Windows: %APPDATA%\\winmcp-gateway\\config.toml)",
        "# or pass --config FILE, and keep only the keys you change. `winmcp-gateway init` writes a",
        "# commented copy there for you; `winmcp-gateway paths` says where that is.",
        "",
    ]
    out += _key_blocks(keys, commented=False)
    out += [
        "# A custom rule, for example (replace `command_rules = []` above with it;",
        "# a TOML 'literal string' keeps the regex's backslashes as typed):",
        f"# command_rules = [{EXAMPLE_RULE}]",
    ]
    return "\n".join(out) + "\n"


def _key_blocks(keys: Sequence[Key], *, commented: bool) -> list[str]:
    out: list[str] = []
    for k in keys:
        doc = k.doc + _range(k)
        out += textwrap.wrap(doc, width=98, initial_indent="# ", subsequent_indent="# ")
        if k.safe_value != k.default:
            out.append(f"# If the value cannot be used: {_safe_text(k)}.")
        out += [f"{'#' if commented else ''}{k.name} = {toml_value(k.default)}", ""]
    return out


def render_init(keys: Sequence[Key] = KEYS) -> str:
    """The commented config `winmcp-gateway init` writes: every key, its meaning and its default,
    each assignment commented out, so the file changes nothing until a line is uncommented and a
    future default still reaches the keys the person never touched (S-CLI-21).

    Args:
        keys: the key table.

    Returns:
        The file's text (valid TOML that sets no key).
    """
    out = [
        "# winmcp-gateway configuration, written by `winmcp-gateway init`.",
        "# Every key is listed with its meaning and its default, commented out: a key that is not set",
        "# keeps its default. To change one, remove the '#' in front of its line and edit the value.",
        "# Precedence: command-line flags, then WINMCP_GATEWAY_<KEY> variables, then this file, then the",
        "# defaults. `winmcp-gateway config show` prints every effective value and where it came from.",
        "# A value the gateway cannot use is never guessed at: the stricter value is used and a warning",
        "# names the key (see the line 'If the value cannot be used').",
        "",
    ]
    out += _key_blocks(keys, commented=True)
    out += [
        "# A custom rule, for example (instead of `#command_rules = []` above, without the '# ';",
        "# a TOML 'literal string' keeps the regex's backslashes as typed):",
        f"# command_rules = [{EXAMPLE_RULE}]",
    ]
    return "\n".join(out) + "\n"


def readme_section(readme_text: str) -> str | None:
    """The generated part of the README (marker to marker, inclusive), or None without markers."""
    start = readme_text.find(README_START)
    end = readme_text.find(README_END)
    if start < 0 or end < start:
        return None
    return readme_text[start : end + len(README_END)] + "\n"


def _plain(value: Any) -> Any:
    return [_plain(v) for v in value] if isinstance(value, list | tuple) else value


def check_docs(keys: Sequence[Key], readme_text: str, example_text: str) -> list[str]:
    """Every difference between `keys` and the two documents (empty when consistent).

    Args:
        keys: the key table (normally `KEYS`).
        readme_text: README.md's whole text.
        example_text: config.example.toml's text.

    Returns:
        Problems, each naming the key and the document, e.g.
        "README: key 'enforce' has default true, the model says false".
    """
    problems: list[str] = []
    model = {k.name: k.default for k in keys}
    section = readme_section(readme_text)
    if section is None:
        problems.append(f"README: no {README_START} … {README_END} section")
    else:
        documented = {m[1]: m[2] for m in map(_ROW.match, section.splitlines()) if m}
        problems += _compare("README", model, documented, lambda v: toml_value(v))
        if not problems and section != render_readme_section(keys):
            problems.append("README: the configuration section differs from the generated text")
    try:
        parsed = tomllib.loads(example_text)
    except tomllib.TOMLDecodeError as exc:
        return [*problems, f"config.example.toml: not valid TOML ({exc})"]
    before = len(problems)
    problems += _compare("config.example.toml", model, {n: _plain(v) for n, v in parsed.items()}, _plain)
    if len(problems) == before and example_text != render_example(keys):
        problems.append("config.example.toml: differs from the generated text")
    return problems


def _compare(doc: str, model: dict[str, Any], found: dict[str, Any], form: Any) -> list[str]:
    out = [f"{doc}: key {n!r} is missing" for n in model if n not in found]
    out += [f"{doc}: key {n!r} is not in the model (renamed or removed?)" for n in found if n not in model]
    for name, default in model.items():
        if name in found and found[name] != form(default):
            out.append(f"{doc}: key {name!r} has default {found[name]!r}, the model says {form(default)!r}")
    return out


def write_docs(readme: Path = README, example: Path = EXAMPLE, packaged: Path | None = PACKAGED_EXAMPLE) -> None:
    """Regenerate the README section (between the markers, or appended) and the example files
    (the repo's `config.example.toml` and, unless `packaged` is None, the package's copy)."""
    text = readme.read_text(encoding="utf-8")
    start, end = text.find(README_START), text.find(README_END)
    if start >= 0 and end > start:
        # Only the marked section is ours; what other sections precede or follow it stays as it is.
        tail = text[end + len(README_END) :].removeprefix("\n")
        text = text[:start] + render_readme_section() + tail
    else:
        text = text.rstrip("\n") + "\n\n" + render_readme_section()
    readme.write_text(text, encoding="utf-8", newline="\n")
    example.write_text(render_example(), encoding="utf-8", newline="\n")
    if packaged is not None:
        packaged.write_text(render_example(), encoding="utf-8", newline="\n")


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m gateway.config.docs --write | --check`; returns the exit code."""
    parser = argparse.ArgumentParser(prog="python -m gateway.config.docs")
    parser.add_argument("--write", action="store_true", help="regenerate README section and config.example.toml")
    parser.add_argument("--check", action="store_true", help="only check (the default)")
    args = parser.parse_args(argv)
    if not (README.is_file() and EXAMPLE.is_file()):
        print(
            f"python -m gateway.config.docs works in a source checkout only: it regenerates README.md and "
            f"config.example.toml, and there are none at {REPO}. An installed gateway ships the example as "
            f"{PACKAGED_EXAMPLE}; `winmcp-gateway init` writes a commented config.",
            file=sys.stderr,
        )
        return 2
    if args.write:
        write_docs()
    problems = check_docs(KEYS, README.read_text(encoding="utf-8"), EXAMPLE.read_text(encoding="utf-8"))
    packaged_ok = PACKAGED_EXAMPLE.is_file() and PACKAGED_EXAMPLE.read_text(encoding="utf-8") == render_example()
    if not packaged_ok:
        problems.append(f"{PACKAGED_EXAMPLE.name}: the packaged example differs from the generated text")
    for p in problems:
        print(p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
