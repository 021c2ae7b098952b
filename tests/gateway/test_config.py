"""Config loading: precedence, warnings, unknown keys, environment syntax (S-CFG-01, -02, -08)."""

from __future__ import annotations

from pathlib import Path

import pytest

import gateway.config.load as config_module
from gateway.config.keys import NO_WINDOW
from gateway.config.load import KEYS, GatewayConfig, load_config
from gateway.errors import ConfigError
from tests._requirements import requirement


def _toml(tmp_path: Path, text: str, name: str = "config.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The developer's own config file must never leak into a test."""
    monkeypatch.setattr(config_module, "default_config_file", lambda: tmp_path / "absent" / "config.toml")


@requirement("S-CFG-01")
def test_flags_beat_environment_beat_file_beat_defaults(tmp_path: Path) -> None:
    """S-CFG-01: precedence is flag > WINMCP_GATEWAY_<KEY> > TOML file > default, per key."""
    path = _toml(tmp_path, "max_observation_age_ms = 1000\napproval_wait_s = 5\naudit_keep = 7\n")
    env = {"WINMCP_GATEWAY_MAX_OBSERVATION_AGE_MS": "2000", "WINMCP_GATEWAY_APPROVAL_WAIT_S": "6"}
    cfg = load_config(environ=env, config_file=path, overrides={"max_observation_age_ms": 3000})
    assert cfg.max_observation_age_ms == 3000  # flag
    assert cfg.approval_wait_s == 6  # environment over file
    assert cfg.audit_keep == 7  # file over default
    assert cfg.audit_max_bytes == 8 * 1024 * 1024  # default
    assert cfg.warnings == () and cfg.config_file == path


@requirement("S-CFG-01")
def test_config_file_comes_from_flag_then_environment_then_user_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-CFG-01: --config wins over WINMCP_GATEWAY_CONFIG, which wins over the user config dir."""
    flag = _toml(tmp_path, "audit_keep = 1\n", "flag.toml")
    env_file = _toml(tmp_path, "audit_keep = 2\n", "env.toml")
    user = _toml(tmp_path, "audit_keep = 4\n", "user.toml")
    monkeypatch.setattr(config_module, "default_config_file", lambda: user)
    env = {"WINMCP_GATEWAY_CONFIG": str(env_file)}
    assert load_config(environ=env, config_file=flag).audit_keep == 1
    assert load_config(environ=env).audit_keep == 2
    assert load_config(environ={}).audit_keep == 4
    assert load_config(environ={}).config_file == user


@requirement("S-CFG-01")
def test_state_dir_comes_from_flag_then_environment(tmp_path: Path) -> None:
    """S-CFG-01: the state dir is the flag's, else WINMCP_GATEWAY_STATE_DIR's, else the platform default."""
    env = {"WINMCP_GATEWAY_STATE_DIR": str(tmp_path / "env")}
    assert load_config(environ=env, state_dir=tmp_path / "flag").state_dir == tmp_path / "flag"
    assert load_config(environ=env).state_dir == tmp_path / "env"
    assert load_config(environ={}).state_dir == config_module.default_state_dir()


@requirement("S-CFG-01")
@pytest.mark.parametrize(
    ("text", "needle"),
    [(None, "does not exist"), ("enforce = \n", "not valid TOML"), ("[[x]\n", "not valid TOML")],
)
def test_a_named_file_that_is_missing_or_not_toml_is_an_error(tmp_path: Path, text: str | None, needle: str) -> None:
    """S-CFG-01: a named config file that is missing or not TOML is a ConfigError naming the file."""
    path = tmp_path / "c.toml"
    if text is not None:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as err:
        load_config(environ={}, config_file=path)
    assert needle in str(err.value) and str(path) in str(err.value)
    assert err.value.exit_code == 2


@requirement("S-CFG-02")
@pytest.mark.parametrize(
    ("line", "key", "received", "used"),
    [
        ('max_observation_age_ms = "30000"', "max_observation_age_ms", "'30000'", "60000"),
        ("max_observation_age_ms = 999999999", "max_observation_age_ms", "999999999", "60000"),
        ("observation_history = 0", "observation_history", "0", "32"),
        ("audit_keep = 2.5", "audit_keep", "2.5", "3"),
        ('profile = "paranoid"', "profile", "'paranoid'", "'observe-only'"),
        ("require_approval = 1", "require_approval", "1", "True"),
        ('tools_allow = "Snapshot, Click"', "tools_allow", "'Snapshot, Click'", "['Snapshot', 'Click']"),
        (
            'allowed_windows = "* - Notepad, draft"',
            "allowed_windows",
            "'* - Notepad, draft'",
            "['* - Notepad, draft']",
        ),
    ],
)
def test_every_adjusted_value_is_a_warning_naming_key_received_and_used(
    tmp_path: Path, line: str, key: str, received: str, used: str
) -> None:
    """S-CFG-02: an adjusted value warns with the key, the value received, its source and the value used."""
    path = _toml(tmp_path, line + "\n")
    cfg = load_config(environ={}, config_file=path)
    (warning,) = cfg.warnings
    assert warning.startswith(f"config {key}:")
    assert f"received {received} from file {path}" in warning
    assert warning.endswith(f"using {used}")


@requirement("S-CFG-02")
def test_unknown_keys_warn_with_a_hint_and_change_nothing(tmp_path: Path) -> None:
    """S-CFG-02: unknown keys in file or environment warn (with a did-you-mean hint) and change nothing."""
    path = _toml(tmp_path, "require_observaton = false\nenforce_all = false\n[gateway]\nenforce = false\n")
    env = {"WINMCP_GATEWAY_ENFORCEMENT": "false"}
    cfg = load_config(environ=env, config_file=path)
    assert [getattr(cfg, k.name) for k in KEYS] == [getattr(GatewayConfig(), k.name) for k in KEYS]
    assert len(cfg.warnings) == 4
    assert (
        "unknown key 'require_observaton'" in cfg.warnings[0]
        and "did you mean 'require_observation'" in cfg.warnings[0]
    )
    assert any("'gateway'" in w and "top level" in w for w in cfg.warnings)
    assert any("WINMCP_GATEWAY_ENFORCEMENT" in w and "did you mean 'enforce'" in w for w in cfg.warnings)
    assert all("changes nothing" in w for w in cfg.warnings)


@requirement("S-CFG-02")
def test_an_unknown_flag_key_is_an_error() -> None:
    """S-CFG-02: a flag naming an unknown key is a ConfigError (flags are typed by the program)."""
    with pytest.raises(ConfigError, match="require_observaton"):
        load_config(environ={}, overrides={"require_observaton": False})


@requirement("S-CFG-08")
@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("enforce", "FALSE", False),
        ("require_approval", " true ", True),
        ("max_observation_age_ms", "30000", 30000),
        ("tools_deny", "PowerShell, Registry", ("PowerShell", "Registry")),
        (
            "allowed_windows",
            '["Report, final - Word", "* - Notepad"]',
            ("Report, final - Word", "* - Notepad"),
        ),
        ("profile", "observe-only", "observe-only"),
        (
            "command_rules",
            '[{id = "x-rule", pattern = "curl", risk = "net", reason = "no"}]',
            ({"id": "x-rule", "pattern": "curl", "risk": "net", "reason": "no"},),
        ),
    ],
)
def test_environment_values_follow_a_fixed_syntax_without_warnings(name: str, text: str, expected: object) -> None:
    """S-CFG-08: env booleans are true/false, integers decimal, lists comma-separated or TOML arrays."""
    cfg = load_config(environ={f"WINMCP_GATEWAY_{name.upper()}": text})
    assert getattr(cfg, name) == expected
    assert cfg.warnings == ()


@requirement("S-CFG-08")
@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("enforce", "0", True),
        ("require_observation", "no", True),
        ("require_approval", "yes", True),
        ("max_observation_age_ms", "30s", 60_000),
        (
            "tools_allow",
            '["Snapshot"',
            ("ControlStatus", "DisplayInventory", "Screenshot", "Snapshot", "Wait", "WaitFor"),
        ),
    ],
)
def test_environment_text_that_does_not_parse_is_replaced_by_the_safe_value(
    name: str, text: str, expected: object
) -> None:
    """S-CFG-08: env text outside the syntax is unusable: the safe value is used and a warning says so."""
    cfg = load_config(environ={f"WINMCP_GATEWAY_{name.upper()}": text})
    assert getattr(cfg, name) == expected
    (warning,) = cfg.warnings
    assert f"received {text!r} from env WINMCP_GATEWAY_{name.upper()}" in warning


@requirement("S-CFG-03")
def test_restricting_lists_that_cannot_be_read_restrict_more_not_less(tmp_path: Path) -> None:
    """S-CFG-03: an unreadable allow-list allows only observation, an unreadable deny-list denies all else."""
    path = _toml(
        tmp_path,
        'tools_allow = 3\ntools_deny = ["Registry", 4]\nallowed_windows = {a = 1}\nallow_rules = ["force-kill", 5]\n',
    )
    cfg = load_config(environ={}, config_file=path)
    assert set(cfg.tools_allow) == {
        "Snapshot",
        "Screenshot",
        "DisplayInventory",
        "Wait",
        "WaitFor",
        "ControlStatus",
    }
    assert {"PowerShell", "Click", "Registry", "App", "Type"} <= set(cfg.tools_deny)
    assert "Snapshot" not in cfg.tools_deny
    assert cfg.allowed_windows == (NO_WINDOW,)
    assert cfg.allow_rules == ("force-kill",)  # fewer exemptions than meant: only stricter
    assert len(cfg.warnings) == 4


@requirement("S-CFG-03")
def test_custom_rules_that_cannot_be_read_are_kept_so_the_rules_fail_to_load(tmp_path: Path) -> None:
    """S-CFG-03: unreadable command_rules are never dropped silently: the rules fail to load."""
    from policy.rules.match import RuleLoadError, load_rules

    cfg = load_config(environ={}, config_file=_toml(tmp_path, 'command_rules = "rm -rf"\n'))
    (warning,) = cfg.warnings
    assert "command_rules" in warning and "refused" in warning
    with pytest.raises(RuleLoadError):
        load_rules(cfg.command_rules, cfg.allow_rules)


@pytest.mark.parametrize("text", ["30_000", "+30000", "３００００", "3e4", "0x7530"])
@requirement("S-CFG-08")
def test_an_integer_from_the_environment_must_be_plain_ascii_digits(text: str) -> None:
    """S-CFG-08: no lenient int() guesses — underscores, signs, other scripts' digits are unusable and warned."""
    config = load_config(environ={"WINMCP_GATEWAY_MAX_OBSERVATION_AGE_MS": text})
    assert config.max_observation_age_ms == 60_000
    assert any("max_observation_age_ms" in w and text in w for w in config.warnings)
