"""The HTML report page, parsed (S-AREP-04, S-AREP-05, S-AREP-09); tests/e2e/test_audit_html_browser.py runs it."""

from __future__ import annotations

import io
import json
import os
import re
import stat
from html.parser import HTMLParser
from pathlib import Path

import pytest

from gateway.audit import html as html_module
from gateway.audit.filters import EventFilter
from gateway.audit.geometry import screen_geometry
from gateway.audit.html import collect, embed_json, render_html
from gateway.audit.html_assets import CSP, CSS, JS, csp_hash
from gateway.audit.report import main
from gateway.audit.writer import AuditLog
from policy.observation import Capture, Display, Mapping, Observation, Window
from tests._requirements import requirement

HOSTILE = [
    "</script><script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "' onmouseover='alert(2)",
    "</svg><svg onload=alert(3)>",
    "<!--<script>",
    "a\u2028b\u2029c & &amp; <b>",
]


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        (self.scripts if self._in_script else self.text).append(data)


def _page(tmp_path: Path, titles: list[str]) -> tuple[str, _Page]:
    log = AuditLog(tmp_path)
    for i, title in enumerate(titles):
        screen = {"displays": [[0, 0, 1920, 1080]], "focused": {"name": title, "size": [10, 10], "status": "Normal"}}
        log.append("observation", session=f"s-{title}", tool="Snapshot", obs=f"obs-{i}", screen=screen)
        log.append("deny", session=f"s-{title}", tool=title, code="PROCESS_CHANGED", reason=title, window=title,
                   obs=f"obs-{i}", point=[5, 5])  # fmt: skip
    html = render_html(collect([log.path], EventFilter()), EventFilter(), generated="2026-12-02T10:31:02.000Z")
    parsed = _Page()
    parsed.feed(html)
    return html, parsed


@requirement("S-AREP-04")
def test_the_page_loads_nothing_and_runs_only_its_own_hashed_style_and_script(tmp_path: Path) -> None:
    """S-AREP-04: CSP default-src 'none' with the hashes of the one style and script; no external reference."""
    html, page = _page(tmp_path, ["Notepad"])
    meta = [a for t, a in page.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert [m["content"] for m in meta] == [CSP]
    assert f"style-src {csp_hash(CSS)};" in CSP and f"script-src {csp_hash(JS)};" in CSP
    for directive in ("default-src", "img-src", "font-src", "connect-src", "frame-src", "form-action", "base-uri"):
        assert f"{directive} 'none'" in CSP
    assert [t for t, _ in page.tags if t in ("link", "img", "iframe", "object", "embed", "base", "form")] == []
    refs = [v for _, a in page.tags for k, v in a.items() if k in ("src", "href", "action") and v]
    assert refs and all(v.startswith("#geo-") for v in refs)
    assert f"<style>{CSS}</style>" in html and f"<script>{JS}</script>" in html
    assert not [a for _, a in page.tags if "style" in a]  # CSP would block style attributes


@requirement("S-AREP-04")
def test_chain_result_first_then_counts_per_code_and_highlighted_refusals(tmp_path: Path) -> None:
    """S-AREP-04: the chain and schema verdicts come first; counts per code; deny rows carry the refusal class."""
    html, page = _page(tmp_path, ["A", "B"])
    assert (
        html.index('id="chain"') < html.index('id="schema"') < html.index('id="by-code"') < html.index('id="timeline"')
    )
    assert "Chain OK: 4 records verified" in html and "all 4 lines conform" in html
    assert re.search(r'<td class="key">PROCESS_CHANGED</td><td class="n">2</td>', html)
    rows = [a for t, a in page.tags if t == "tr" and "data-index" in a]
    assert [r["class"] for r in rows] == ["", "refusal", "", "refusal"]
    assert [r["data-refusal"] for r in rows] == ["0", "1", "0", "1"]


@requirement("S-AREP-04")
def test_an_unwritable_html_file_exits_2(tmp_path: Path) -> None:
    """S-AREP-04: the page cannot be written → exit 2 naming the file."""
    AuditLog(tmp_path).append("config", reason="r")
    err = io.StringIO()
    target = tmp_path / "no-such-dir" / "audit.html"
    assert main(["--state-dir", str(tmp_path), "--html", str(target)], stdout=io.StringIO(), stderr=err) == 2
    assert str(target) in err.getvalue()


@requirement("S-AREP-05")
def test_an_observation_line_records_the_screen_geometry_without_pixels() -> None:
    """S-AREP-05: displays, primary, region, mapping, image, cursor and the focused window's name/size/status."""
    capture = Capture(
        tool="Snapshot",
        cursor=(10, 20),
        displays=(Display(index=0, device="D1", rect=(0, 0, 2560, 1440), primary=True),
                  Display(index=1, device="D2", rect=(-1920, 0, 0, 1080))),
        region=(-1920, 0, 2560, 1440),
        focused=Window(name="notes.txt - Notepad", depth=0, status="Normal", width=500, height=550, handle=7),
    )  # fmt: skip
    mapping = Mapping(
        origin=(-1920.0, 0.0), scale=(4480 / 1920, 1.333333), image_size=(1920, 617), source_size=(4480, 1440)
    )
    obs = Observation(id="obs-1", session="s", generation=1, taken_at_ms=0.0, capture=capture, mapping=mapping)
    assert screen_geometry(obs) == {
        "displays": [[0, 0, 2560, 1440], [-1920, 0, 0, 1080]],
        "primary": 1 - 1,
        "region": [-1920, 0, 2560, 1440],
        "origin": [-1920, 0],
        "scale": [2.333333, 1.333333],
        "image": [1920, 617],
        "cursor": [10, 20],
        "focused": {"name": "notes.txt - Notepad", "size": [500, 550], "status": "Normal"},
    }
    assert screen_geometry(Observation(id="obs-2", session="s", generation=1, taken_at_ms=0.0,
                                       capture=Capture(tool="Snapshot"))) == {"displays": []}  # fmt: skip


@requirement("S-AREP-05")
def test_each_observation_is_drawn_with_its_allowed_and_refused_clicks(tmp_path: Path) -> None:
    """S-AREP-05: one SVG per observation; an allowed click (intent line) green, a refused one red, never twice."""
    log = AuditLog(tmp_path)
    screen = {"displays": [[0, 0, 1920, 1080], [1920, 0, 4480, 1440]], "primary": 0, "cursor": [5, 5]}
    log.append("observation", session="s", tool="Snapshot", obs="obs-1", screen=screen)
    log.append("allow", session="s", tool="Click", obs="obs-1", point=[100, 100], phase="intent")
    log.append("outcome", session="s", tool="Click", obs="obs-1", point=[100, 100], intent=2)
    log.append("deny", session="s", tool="Click", obs="obs-1", point=[3000, 700], code="STALE_OBSERVATION", reason="r")
    log.append("deny", session="s", tool="Click", obs="obs-9", point=[1, 1], code="UNKNOWN_OBSERVATION", reason="r")
    html = render_html(collect([log.path], EventFilter()), EventFilter(), generated="now")
    assert html.count("<svg ") == 1 and html.count('class="display') == 2 and html.count('class="cursor"') == 1
    assert html.count('class="allowed"') == 1 and html.count('class="refused"') == 1
    assert "Click refused STALE_OBSERVATION at (3000, 700)" in html and "1 allowed, 1 refused" in html


@requirement("S-AREP-09")
@pytest.mark.parametrize("title", HOSTILE)
def test_embedded_json_cannot_end_its_block_and_reads_back_the_same(title: str) -> None:
    """S-AREP-09: no <, >, &, U+2028/9 in the block; JSON.parse (json.loads) gives the same text back."""
    text = embed_json({"events": [{"window": title}]})
    assert not set(text) & {"<", ">", "&", "\u2028", "\u2029"}
    assert json.loads(text) == {"events": [{"window": title}]}


@requirement("S-AREP-09")
def test_hostile_titles_stay_text_in_html_attributes_svg_and_json(tmp_path: Path) -> None:
    """S-AREP-09: only our elements exist, titles appear as text and attribute values, the data block is intact."""
    html, page = _page(tmp_path, HOSTILE)
    assert [t for t, _ in page.tags if t == "script"] == ["script", "script"]
    assert [t for t, _ in page.tags if t in ("img", "b", "svg")] == ["b"] + ["svg"] * len(HOSTILE)  # b: our count
    assert not any(k.startswith("on") for _, a in page.tags for k in a)
    data = json.loads(page.scripts[0])
    assert [e["window"] for e in data["events"] if e["event"] == "deny"] == HOSTILE
    assert page.scripts[1] == JS
    text = "".join(page.text)
    for title in HOSTILE:
        assert title in text  # shown, as text, in the timeline and the figure captions
    sessions = [a["data-session"] for t, a in page.tags if t == "tr" and "data-session" in a]
    assert sessions[1::2] == [f"s-{t}" for t in HOSTILE]
    options = [a["value"] for t, a in page.tags if t == "option" and a.get("value")]
    assert set(HOSTILE) <= set(options)


@requirement("S-AREP-04")
def test_the_timeline_keeps_the_last_rows_while_counts_cover_every_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S-AREP-04: beyond MAX_TIMELINE rows the oldest drop from the list, never from the counts."""
    monkeypatch.setattr(html_module, "MAX_TIMELINE", 3)
    log = AuditLog(tmp_path)
    for i in range(5):
        log.append("deny", session="s", tool="Click", code=f"CODE_{i}", reason="r")
    data = collect([log.path], EventFilter())
    assert [r["code"] for r in data.timeline] == ["CODE_2", "CODE_3", "CODE_4"]
    assert data.matched == 5 and sum(data.by_code.values()) == 5 and data.refusals == 5
    assert "the timeline lists the last 3" in render_html(data, EventFilter(), generated="now")


@requirement("S-AREP-05")
def test_only_the_last_observations_are_drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """S-AREP-05: at most MAX_FIGURES figures, the newest; a click citing a dropped one is not drawn."""
    monkeypatch.setattr(html_module, "MAX_FIGURES", 2)
    log = AuditLog(tmp_path)
    for i in range(4):
        log.append("observation", session="s", tool="Snapshot", obs=f"obs-{i}", screen={"displays": [[0, 0, 9, 9]]})
    log.append("allow", session="s", tool="Click", obs="obs-0", point=[1, 1], phase="intent")
    data = collect([log.path], EventFilter())
    assert list(data.figures) == ["obs-2", "obs-3"]
    html = render_html(data, EventFilter(), generated="now")
    assert html.index('id="geo-obs-3"') < html.index('id="geo-obs-2"') and 'class="allowed"' not in html


@requirement("S-AREP-04")
@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX; Windows inherits the profile's ACLs")
def test_the_page_is_created_owner_only(tmp_path: Path) -> None:
    """S-AREP-04: the page holds what the audit holds, so it is created 0600 like the audit."""
    AuditLog(tmp_path).append("config", reason="r")
    target = tmp_path / "audit.html"
    assert main(["--state-dir", str(tmp_path), "--html", str(target)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
