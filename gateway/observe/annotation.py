"""The one machine-readable line appended to every Snapshot/Screenshot result (DESIGN.md §3).

    [gateway] obs=obs-3 origin=0,0 scale=1.333333 image=1920x1080 source=2560x1440 \
      focused="notes.txt - Notepad" | screen = origin + image_px × scale | cite based_on="obs-3"

(shown wrapped here; the real line has a single space where the backslash-newline is).

Formatting decisions (S-MAP-09):

* Fields are absent when unknown: no image → no origin/scale/image/source; an image whose
  mapping is unknown → `image=` only; no focused window → no `focused=`.
* `masked=N` (after `focused=`) counts the private windows painted over and filtered out
  (S-PRIV-07); `mask=whole` follows when one could not be placed and the whole image was
  painted. Both are absent when nothing was private.
* Numbers: integers print without a decimal point (`origin=-1920,0`); other values with
  at most six decimals, trailing zeros dropped (`origin=12.5,0`, `scale=1.333333`,
  `scale=2` for exactly 2.0).
* `scale=` is one number when both axes agree to six decimals, otherwise `x,y`
  (samples/04a: `scale=2.333333,2.333874`).
* Quoted values (`focused=`, `based_on=`) escape `\\` and `"` with a backslash and every
  line break or other control character as `\\n`, `\\r`, `\\t` or `\\uXXXX`, so the line
  is always exactly one line.
"""

from __future__ import annotations

import math
import re
import unicodedata

from policy.observation import Observation

FORMULA = "screen = origin + image_px × scale"
_PLAIN_ID = re.compile(r"[A-Za-z0-9._:-]+")
_SIMPLE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def format_number(value: float) -> str:
    """Format a coordinate or scale: integral values without decimals, others with ≤ 6 decimals.

    Args:
        value: any float (non-finite values print as Python spells them).

    Returns:
        e.g. `"0"`, `"-1920"`, `"12.5"`, `"1.333333"`.
    """
    if not math.isfinite(value):
        return str(value)
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    text = f"{value:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def quote(text: str) -> str:
    """Double-quote a value for the annotation line, escaped so it stays on one line."""
    out = []
    for ch in text:
        if ch in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[ch])
        elif unicodedata.category(ch) in ("Cc", "Zl", "Zp"):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def annotation_line(obs: Observation) -> str:
    """Return DESIGN §3's single annotation line for an observation.

    Args:
        obs: the stamped observation (its `mapping` as built by `gateway.observe.coords`).

    Returns:
        One line without a trailing newline.
    """
    obs_id = obs.id if _PLAIN_ID.fullmatch(obs.id) else quote(obs.id)
    parts = ["[gateway]", f"obs={obs_id}"]
    mapping = obs.mapping
    if mapping is not None:
        sx, sy = (format_number(round(s, 6)) for s in mapping.scale)
        parts.append(f"origin={format_number(mapping.origin[0])},{format_number(mapping.origin[1])}")
        parts.append(f"scale={sx}" if sx == sy else f"scale={sx},{sy}")
        parts.append(f"image={mapping.image_size[0]}x{mapping.image_size[1]}")
        parts.append(f"source={mapping.source_size[0]}x{mapping.source_size[1]}")
    elif obs.capture.image_size is not None:
        parts.append(f"image={obs.capture.image_size[0]}x{obs.capture.image_size[1]}")
    if obs.focused is not None:
        parts.append(f"focused={quote(obs.focused.name)}")
    if obs.private.count or obs.private.everywhere:
        parts.append(f"masked={obs.private.count}")  # private windows painted over (S-PRIV-07)
        if obs.private.everywhere:
            parts.append("mask=whole")  # one could not be placed: the whole image was painted
    return f"{' '.join(parts)} | {FORMULA} | cite based_on={quote(obs.id)}"
