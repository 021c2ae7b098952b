"""The redaction screen (S-PERF-04): skipping the rule table changes nothing but the time."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gateway.audit.redact import patterns
from gateway.audit.redact.patterns import SCREENED, TEXT_RULES, could_hold_secret
from gateway.audit.redact.values import RESULT_TEXT_CHARS, redact_text, summarize_result, truncate
from tests._requirements import requirement

# Pieces that make triggers fire (and near misses), so random text reaches every rule often.
_PIECES = [
    *patterns._SCREEN_LOWER,
    *patterns._SCREEN_CASE,
    *(w.upper() for w in patterns._SCREEN_LOWER),
    "Bearer ", "basic ", "=", ":", "-", "@", "://", "'", '"', " ", "\n", "-----BEGIN RSA PRIVATE KEY-----",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2ln", "AKIAABCDEFGHIJKLMNOP", "Zm9vYmFy" * 5, "0123456789abcdef" * 3,
    "K", "\u212a", "\u0130", "ſ",
]  # fmt: skip
_TEXT = st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=12)), max_size=30).map("".join)


def _table(text: str) -> str:
    """The rule table run on every string, as redact_text ran it before the screen."""
    work, low = text, text.lower()
    for trigger, rule in TEXT_RULES:
        if trigger(work, low):
            work = rule(work)
    return work


@requirement("S-PERF-04")
def test_every_trigger_of_the_table_is_made_through_the_screens_helpers() -> None:
    """S-PERF-04: a trigger written by hand outside the helpers would not be in the screen's word list."""
    screened = {id(t) for t in SCREENED}
    assert [i for i, (trigger, _) in enumerate(TEXT_RULES) if id(trigger) not in screened] == []


@requirement("S-PERF-04")
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_TEXT)
def test_a_string_the_screen_passes_over_fires_no_trigger(text: str) -> None:
    """S-PERF-04: when the screen says no, no trigger fires, so the table would return the text unchanged."""
    low = text.lower()
    if not could_hold_secret(text, low):
        assert not any(trigger(text, low) for trigger, _ in TEXT_RULES)
        assert _table(text) == text


@requirement("S-PERF-04")
@settings(max_examples=2000, deadline=None)
@given(_TEXT)
def test_redact_text_equals_the_whole_table(text: str) -> None:
    """S-PERF-04: with the screen, redact_text gives exactly what running the table always gave."""
    assert redact_text(text) == _table(text)


@requirement("S-PERF-04")
def test_the_screen_says_no_to_plain_text_and_yes_to_each_shape() -> None:
    """S-PERF-04: the screen is not a constant: ordinary lines pass over, each secret shape is caught."""
    plain = "Window: Notepad at (10,20) focused\nButton 'OK' (300,400)\n"
    assert not could_hold_secret(plain, plain.lower())
    # The words of every UI tree and display list (a screen word "gh" once matched "height" and "right").
    layout = "Name  Depth  Status  Width  Height  Handle\nbounds: left 0 top 0 right 1920 bottom 1080 (highlight)\n"
    assert not could_hold_secret(layout, layout.lower())
    for text in (
        "Authorization: x",
        "AKIA",
        "ghp_x",
        "gho_x",
        "ghu_x",
        "ghs_x",
        "ghr_x",
        "github_pat_x",
        "a" * 32,
        "https://u:p@h",
        "-Password x",
        "ConvertTo-SecureString",
    ):
        assert could_hold_secret(text, text.lower()), text


@requirement("S-PERF-04", "S-RED-05")
def test_a_summary_keeps_500_characters_and_notes_the_original_length() -> None:
    """S-PERF-04: a long text item is cut to 500 with its real length (was: the 2,000 of an earlier cut)."""
    text = "row of output text\n" * 1000
    out = summarize_result({"content": [{"type": "text", "text": text}]})["content"][0]["text"]
    assert out == truncate(text[: 4 * RESULT_TEXT_CHARS], RESULT_TEXT_CHARS, total=len(text))
    assert len(out) == RESULT_TEXT_CHARS and out.endswith(f"[truncated, {len(text)} chars]")


@requirement("S-PERF-04", "S-RED-02")
def test_a_secret_straddling_the_kept_part_is_masked_whole() -> None:
    """S-PERF-04: the scan goes past the cut, so a token that starts at 460 is masked, not cut in half."""
    token = "ghp_" + "A1b2C3d4E5" * 4
    text = "x " * 230 + token + " " + "y " * 2500
    assert text.index(token) == 460
    out = summarize_result({"content": [{"type": "text", "text": text}]})["content"][0]["text"]
    assert token[:10] not in out
    assert "[REDACTED:github" in out  # the mask itself may be cut; the token never is
