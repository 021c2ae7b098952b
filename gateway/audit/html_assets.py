"""The HTML report's fixed style and script (S-AREP-04).

Both are constants: no audit data is ever put into them, so their SHA-256 hashes in the page's
Content-Security-Policy are the only style and script the browser runs. The script reads the
events from the page's ``application/json`` block and writes them back with ``textContent`` only.
"""

from __future__ import annotations

import base64
import hashlib

CSS = """
body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header,main{padding:12px 20px}
header{background:#1d2330;color:#fff}
h1{font-size:18px;margin:0 0 4px}
h2{font-size:15px;margin:18px 0 6px}
.meta{color:#c9d1de;font-size:12px}
.chain{padding:10px 14px;border-radius:6px;font-weight:600;margin:12px 0}
.chain.ok{background:#e3f5e8;color:#13622d;border:1px solid #9bd3ad}
.chain.broken{background:#fde7e7;color:#8a1414;border:1px solid #ef9a9a}
.chain .detail{font-weight:400}
table{border-collapse:collapse;background:#fff}
th,td{border:1px solid #d9dde4;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#eef0f4}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.counts{display:flex;gap:24px;flex-wrap:wrap}
.filters{display:flex;gap:14px;flex-wrap:wrap;align-items:center;margin:8px 0}
#timeline{width:100%}
#timeline td{font-size:12.5px}
#timeline tr.refusal td{background:#fde7e7}
#timeline tr.refusal td.event{color:#8a1414;font-weight:700}
#timeline tr.ask td{background:#fff4d6}
#timeline tr.failure td{background:#f1e7fb}
#timeline tbody tr{cursor:pointer}
#timeline tbody tr.selected td{outline:2px solid #3b6fd8}
.reason{max-width:520px;word-break:break-word}
#detail{background:#fff;border:1px solid #d9dde4;padding:8px;white-space:pre-wrap;word-break:break-all;
 max-height:320px;overflow:auto;font:12px ui-monospace,Consolas,monospace}
.geo{display:flex;gap:16px;flex-wrap:wrap}
figure{margin:0;background:#fff;border:1px solid #d9dde4;padding:6px;width:460px}
figcaption{font-size:12px;word-break:break-word}
svg .display{fill:#e8eefc;stroke:#3b6fd8;stroke-width:1.5}
svg .display.primary{fill:#dbe6ff}
svg .region{fill:none;stroke:#7a4bd1;stroke-dasharray:5 3;stroke-width:1.5}
svg .label{font-size:11px;fill:#34405a}
svg .cursor{fill:#1d2330}
svg .allowed{fill:#18a34a;stroke:#fff;stroke-width:1}
svg .refused{stroke:#d12b2b;stroke-width:2.5}
.legend{font-size:12px;color:#555}
.muted{color:#666}
"""

JS = """
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("audit-data").textContent);
  var rows = Array.prototype.slice.call(document.querySelectorAll("#timeline tbody tr"));
  var pick = {
    session: document.getElementById("f-session"),
    tool: document.getElementById("f-tool"),
    code: document.getElementById("f-code")
  };
  var refusalsOnly = document.getElementById("f-refusals");
  var shown = document.getElementById("shown");
  var detail = document.getElementById("detail");
  function apply() {
    var n = 0;
    rows.forEach(function (row) {
      var ok = true;
      Object.keys(pick).forEach(function (key) {
        var want = pick[key].value;
        if (want !== "" && row.getAttribute("data-" + key) !== want) { ok = false; }
      });
      if (refusalsOnly.checked && row.getAttribute("data-refusal") !== "1") { ok = false; }
      row.hidden = !ok;
      if (ok) { n += 1; }
    });
    shown.textContent = String(n);
  }
  Object.keys(pick).forEach(function (key) { pick[key].addEventListener("change", apply); });
  refusalsOnly.addEventListener("change", apply);
  rows.forEach(function (row) {
    row.addEventListener("click", function () {
      rows.forEach(function (r) { r.classList.remove("selected"); });
      row.classList.add("selected");
      var record = data.events[Number(row.getAttribute("data-index"))];
      detail.textContent = JSON.stringify(record, null, 2);
    });
  });
  apply();
}());
"""


def csp_hash(text: str) -> str:
    """The CSP source expression (``'sha256-…'``) of an inline style or script."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


# No network at all: nothing may be fetched, framed, posted or based elsewhere; only the two
# inline blocks above run. SVG is inline markup, so no img-src is needed either.
CSP = (
    "default-src 'none'; "
    f"style-src {csp_hash(CSS)}; "
    f"script-src {csp_hash(JS)}; "
    "img-src 'none'; font-src 'none'; connect-src 'none'; media-src 'none'; object-src 'none'; "
    "frame-src 'none'; base-uri 'none'; form-action 'none'"
)
