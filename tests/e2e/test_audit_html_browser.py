"""The HTML report in a real headless browser: Debian's Chromium driven by Selenium (S-AREP-04, S-AREP-05).

The page of a real session (tests/e2e/test_audit_html_e2e.py's flow) plus lines whose window
titles are hostile markup renders with no script but its own (no alert, no element the titles
spell, no Content-Security-Policy violation in the console), shows the counts the file holds, and
a click on a filter changes what the timeline lists. A screenshot goes to
``/work/helpers/audit_html.png`` (and its geometry section to ``audit_html_geometry.png``) when that
folder exists. No browser is a failure, not a skip:
scripts/test installs ``chromium`` and ``chromium-driver``.
"""

from __future__ import annotations

import io
import shutil
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from gateway.audit.report import main as report_main
from gateway.audit.writer import AuditLog
from tests._requirements import requirement
from tests.e2e.test_audit_html_e2e import lines_of, run_flow

pytestmark = [pytest.mark.anyio, pytest.mark.e2e]

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
SCREENSHOT = Path("/work/helpers/audit_html.png")
HOSTILE = [
    '</script><script>alert("title")</script>',
    '"><img src=x onerror=alert(1)>',
    "</svg><svg onload=alert(2)>",
    "\u2028Notepad' onmouseover='alert(3)",
]


def _browser_paths() -> tuple[str, str]:
    found = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if p.is_file()]
    chromium = str(CHROMIUM) if CHROMIUM.is_file() else shutil.which("chromium")
    driver = str(CHROMEDRIVER) if CHROMEDRIVER.is_file() else shutil.which("chromedriver")
    assert chromium and driver, (
        f"no headless browser ({found or 'neither'} of {CHROMIUM}, {CHROMEDRIVER} found): "
        "run scripts/test, which installs Debian's chromium and chromium-driver"
    )
    return chromium, driver


@pytest.fixture
def browser() -> Iterator[webdriver.Chrome]:
    chromium, driver_path = _browser_paths()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,4400"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    # An explicit driver path: Selenium Manager never downloads a browser or driver.
    driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def _hostile_lines(state: Path) -> None:
    log = AuditLog(state)
    screen = {"displays": [[0, 0, 1920, 1080]], "primary": 0, "cursor": [10, 10]}
    for i, title in enumerate(HOSTILE):
        obs = f"obs-{900 + i}"
        focused = {"name": title, "size": [800, 600], "status": "Normal"}
        log.append("observation", session="s-hostile", tool="Snapshot", obs=obs, screen={**screen, "focused": focused})
        log.append(
            "deny", session="s-hostile", tool="Click", code="PROCESS_CHANGED", reason=f"focus moved to {title}",
            obs=obs, window=title, point=[100 + 50 * i, 500],
        )  # fmt: skip


@requirement("S-AREP-04", "S-AREP-05")
async def test_the_page_renders_counts_filters_and_keeps_hostile_titles_as_text(
    tmp_path: Path, browser: webdriver.Chrome
) -> None:
    """S-AREP-04/05: right counts, a filter click changes the list, hostile titles stay text, no CSP violation."""
    state = await run_flow(tmp_path)
    _hostile_lines(state)
    page = tmp_path / "audit.html"
    assert (
        report_main(["--state-dir", str(state), "--html", str(page)], stdout=io.StringIO(), stderr=io.StringIO()) == 0
    )
    records = lines_of(state)
    browser.get(page.as_uri())

    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text  # noqa: B018 - reading it is the check
    assert browser.find_elements(By.TAG_NAME, "img") == []
    assert len(browser.find_elements(By.TAG_NAME, "script")) == 2  # the data block and our own
    assert "Chain OK" in browser.find_element(By.ID, "chain").text

    shown = {
        row.find_elements(By.TAG_NAME, "td")[0].text: int(row.find_elements(By.TAG_NAME, "td")[1].text)
        for row in browser.find_elements(By.CSS_SELECTOR, "#by-code tr")[1:]
    }
    assert shown == dict(Counter(r["code"] for r in records if r.get("code")))
    assert int(browser.find_element(By.ID, "matched").text) == len(records)
    assert int(browser.find_element(By.ID, "refusals").text) == sum(r["event"] == "deny" for r in records)

    rows = browser.find_elements(By.CSS_SELECTOR, "#timeline tbody tr")
    assert len(rows) == len(records) and browser.find_element(By.ID, "shown").text == str(len(records))
    Select(browser.find_element(By.ID, "f-code")).select_by_value("PROCESS_CHANGED")
    visible = [r for r in rows if r.is_displayed()]
    assert len(visible) == len(HOSTILE) == int(browser.find_element(By.ID, "shown").text)
    assert [r.find_elements(By.TAG_NAME, "td")[7].text for r in visible] == [t.strip() for t in HOSTILE]
    Select(browser.find_element(By.ID, "f-code")).select_by_value("")
    browser.find_element(By.ID, "f-refusals").click()
    refused = [r for r in rows if r.is_displayed()]
    assert len(refused) == sum(r["event"] == "deny" for r in records) < len(records)

    refused[-1].click()  # the detail pane shows the whole line, the title as text
    assert HOSTILE[-1].strip() in browser.find_element(By.ID, "detail").text.replace("\u2028", "")
    figures = browser.find_elements(By.CSS_SELECTOR, "#geometry figure")
    assert len(figures) == sum(r["event"] == "observation" for r in records)
    assert any(HOSTILE[0] in f.text for f in figures)

    violations = [e["message"] for e in browser.get_log("browser") if "Content Security Policy" in e["message"]]
    assert violations == []
    browser.find_element(By.ID, "f-refusals").click()
    if SCREENSHOT.parent.is_dir():
        browser.save_screenshot(str(SCREENSHOT))
        browser.find_element(By.ID, "geometry").screenshot(str(SCREENSHOT.with_name("audit_html_geometry.png")))
