"""The demo's audit page: the person writes the HTML report of what just happened (S-AREP-04, S-AREP-05).

Called from `Demo.run` after the "Afterwards" step. `Demo` is typed structurally here so this module
needs no import of `gateway.cli.demo` (which imports this one).
"""

from __future__ import annotations

import re
from html import unescape

from gateway.cli.demo_steps import DemoSteps


async def show_audit_html(demo: DemoSteps) -> None:
    """Write the self-contained HTML report of the demo's audit and check what it shows."""
    demo.title("The record as a page — one self-contained HTML file, nothing loaded from anywhere")
    page = demo.root / "audit.html"
    demo.person("audit-report", "--state-dir", str(demo.state), "--html", str(page), "--since", "1h", "--recent", "0")
    html = page.read_text(encoding="utf-8") if page.is_file() else ""
    demo.check("Chain OK" in html and "lines conform" in html, "the page opens with the chain and schema checks: OK")
    observations = sum(1 for line in (demo.state / "audit.jsonl").read_text(encoding="utf-8").split("\n")
                       if '"event":"observation"' in line)  # fmt: skip
    demo.check(
        html.count("<svg ") == observations > 0 and 'class="allowed"' in html and 'class="refused"' in html,
        f"each of the {observations} observations is drawn: displays, cursor, allowed (green) and refused (red) clicks",
    )
    remote = re.findall(r"""(?:src|href)\s*=\s*["']?(?!#)[^"'\s>]+""", html)
    demo.check(
        "default-src 'none'" in unescape(html) and not remote,
        "a Content-Security-Policy forbids every remote load, and the page references nothing outside itself",
    )
    demo.say(f"open it in any browser (kept by `winmcp-gateway demo --keep`): {page}")
