"""One source of truth: KEYS, GatewayConfig, the README section and config.example.toml agree (S-CFG-05)."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from gateway.config.docs import (
    EXAMPLE,
    EXAMPLE_RULE,
    README,
    check_docs,
    render_example,
    render_readme_section,
    write_docs,
)
from gateway.config.keys import Key
from gateway.config.load import KEYS, GatewayConfig, config_field_names, load_config
from policy import PolicyConfig
from policy.rules.match import load_rules
from tests._requirements import requirement


def _docs() -> tuple[str, str]:
    return README.read_text(encoding="utf-8"), EXAMPLE.read_text(encoding="utf-8")


def _redefault(name: str, default: object) -> tuple[Key, ...]:
    return tuple(dataclasses.replace(k, default=default) if k.name == name else k for k in KEYS)


@requirement("S-CFG-05")
def test_readme_and_example_match_the_model() -> None:
    """S-CFG-05: the README's configuration section and config.example.toml are what KEYS generates."""
    assert check_docs(KEYS, *_docs()) == []


@requirement("S-CFG-05")
@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("max_observation_age_ms", 30_000),
        ("enforce", False),
        ("profile", "observe-only"),
        ("tools_deny", ("PowerShell",)),
    ],
)
def test_changing_a_default_in_the_model_only_fails_the_check(name: str, default: object) -> None:
    """S-CFG-05: a default changed in KEYS alone is reported for both documents, naming the key."""
    problems = check_docs(_redefault(name, default), *_docs())
    assert any(p.startswith("README:") and repr(name) in p and "default" in p for p in problems), problems
    assert any(p.startswith("config.example.toml:") and repr(name) in p and "default" in p for p in problems)


@requirement("S-CFG-05")
def test_adding_or_renaming_a_key_in_one_place_fails_the_check() -> None:
    """S-CFG-05: a key added to or renamed in KEYS alone is reported as missing / not in the model."""
    extra = Key(name="new_knob", kind="bool", default=True, doc="A new knob.")
    problems = check_docs((*KEYS, extra), *_docs())
    assert "README: key 'new_knob' is missing" in problems
    assert "config.example.toml: key 'new_knob' is missing" in problems
    renamed = tuple(dataclasses.replace(k, name="audit_keep_files") if k.name == "audit_keep" else k for k in KEYS)
    problems = check_docs(renamed, *_docs())
    assert "README: key 'audit_keep' is not in the model (renamed or removed?)" in problems
    assert "config.example.toml: key 'audit_keep_files' is missing" in problems


@requirement("S-CFG-05")
def test_a_doc_edited_by_hand_fails_the_check() -> None:
    """S-CFG-05: a hand edit of the generated text (even of a meaning only) is reported."""
    readme, example = _docs()
    stale = readme.replace("Rotated audit files (and upstream stderr logs) to keep.", "Files to keep.")
    assert check_docs(KEYS, stale, example)
    assert check_docs(KEYS, readme, example.replace("audit_keep = 3", "audit_keep = 4"))
    assert check_docs(KEYS, readme + "\n## Later section\n", example) == [], "text after the section is not ours"


@requirement("S-CFG-05")
def test_gateway_config_and_policy_config_defaults_are_the_models() -> None:
    """S-CFG-05: GatewayConfig's fields are KEYS, in order, with KEYS' defaults; PolicyConfig's agree."""
    assert config_field_names() == tuple(k.name for k in KEYS)
    defaults = GatewayConfig()
    for key in KEYS:
        assert getattr(defaults, key.name) == key.default, key.name
    policy = PolicyConfig()
    for name in (
        "enforce",
        "require_observation",
        "require_coordinate_mapping",
        "require_process_match",
        "max_observation_age_ms",
        "allowed_windows",
        "tools_allow",
        "tools_deny",
        "profile",
        "unknown_tools",
        "require_approval",
        "require_approval_for_input",
        "approval_ttl_ms",
    ):
        assert getattr(policy, name) == getattr(defaults, name), name


@requirement("S-CFG-05")
def test_the_example_file_loads_to_the_defaults_without_a_warning(tmp_path: Path) -> None:
    """S-CFG-05: config.example.toml sets every key to its default and loads without a warning."""
    cfg = load_config(environ={}, config_file=EXAMPLE, state_dir=tmp_path)
    assert cfg.warnings == ()
    assert [getattr(cfg, k.name) for k in KEYS] == [k.default for k in KEYS]


@requirement("S-CFG-05")
def test_the_example_custom_rule_loads() -> None:
    """S-CFG-05: the commented custom rule in the example is a rule the loader accepts."""
    rules = tomllib.loads(f"command_rules = [{EXAMPLE_RULE}]")["command_rules"]
    loaded = load_rules(rules)
    hit = loaded.match("PowerShell", {"command": "git push --force origin main"})
    assert hit is not None and hit.rule_id == "ask-before-force-push" and hit.action == "ask"
    assert loaded.match("PowerShell", {"command": "git push origin main"}) is None


@requirement("S-CFG-05")
def test_writing_replaces_only_the_marked_section(tmp_path: Path) -> None:
    """S-CFG-05: regenerating rewrites the text between the markers and keeps every other README line."""
    readme, example = tmp_path / "README.md", tmp_path / "config.example.toml"
    old = render_readme_section().replace("Rotated audit files (and upstream stderr logs) to keep.", "stale")
    readme.write_text("# Title\n\nintro\n\n" + old + "\n## After\n\ntext\n", encoding="utf-8")
    write_docs(readme, example)
    text = readme.read_text(encoding="utf-8")
    assert text == "# Title\n\nintro\n\n" + render_readme_section() + "\n## After\n\ntext\n"
    assert check_docs(KEYS, text, example.read_text(encoding="utf-8")) == []


@requirement("S-CFG-05")
def test_rendering_is_deterministic_and_self_consistent() -> None:
    """S-CFG-05: rendering twice gives the same text, and a freshly rendered pair passes the check."""
    readme = "# x\n\n" + render_readme_section()
    assert render_readme_section() == render_readme_section() and render_example() == render_example()
    assert check_docs(KEYS, readme, render_example()) == []
