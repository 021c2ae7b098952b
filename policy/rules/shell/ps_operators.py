"""PowerShell operators and string methods on folded values (issue 18): `+`, `-f`, `-join`, `-replace`, ….

Pure functions; each returns `UNKNOWN` rather than guess, and bounds what it allocates.
"""

from __future__ import annotations

from policy.rules.shell.ps_text import net_format, ps_replace, ps_split
from policy.rules.shell.ps_values import UNKNOWN, PSValue, as_text, flatten

MAX_STRING = 65_536  # longest folded string: `'a' * 1e9` must not allocate a gigabyte
_MAX_RANGE = 1024


def integer(text: str) -> PSValue:
    """An integer literal's value (`0x52`, `10`, `1MB`), or UNKNOWN."""
    if text.isascii() and text.isdigit():
        return int(text)  # the common decimal literal, without the suffix search
    lowered = text.lower().rstrip("l")
    multiplier = 1
    for suffix, factor in (("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30), ("tb", 1 << 40), ("pb", 1 << 50)):
        if lowered.endswith(suffix):
            lowered, multiplier = lowered[: -len(suffix)], factor
            break
    try:
        return int(lowered, 16 if lowered.startswith("0x") else 10) * multiplier
    except ValueError:
        return UNKNOWN


def real(text: str) -> PSValue:
    """A real literal's value, or UNKNOWN."""
    try:
        return float(text.lower().rstrip("d"))
    except ValueError:
        return UNKNOWN


def char(code: PSValue) -> PSValue:
    """`[char]code`: a code point or a one-character string, else UNKNOWN."""
    if isinstance(code, int) and not isinstance(code, bool) and 0 <= code <= 0x10FFFF:
        return chr(code)
    if isinstance(code, str) and len(code) == 1:
        return code
    return UNKNOWN


def apply_operator(operator: str, left: PSValue, right: PSValue) -> PSValue:  # noqa: C901, PLR0911, PLR0912
    """`left <operator> right` for the operators folding knows (`+`, `*`, `-f`, `-join`, `-replace`, …)."""
    if left is UNKNOWN or right is UNKNOWN:
        return UNKNOWN
    if operator == "+":
        if isinstance(left, str):
            text = as_text(right)
            return UNKNOWN if text is None or len(left) + len(text) > MAX_STRING else left + text
        if isinstance(left, tuple):
            return left + flatten(right)
        if isinstance(left, int | float) and isinstance(right, int | float) and not isinstance(left, bool):
            return left + right
        return UNKNOWN
    if operator == "*":
        if isinstance(left, str | tuple) and isinstance(right, int) and right >= 0 and len(left) * right <= MAX_STRING:
            return left * right
        if isinstance(left, int) and isinstance(right, int) and abs(left) < 1 << 62 and abs(right) < 1 << 62:
            return left * right
        return UNKNOWN
    if operator == "-":
        if isinstance(left, int) and isinstance(right, int):
            return left - right
        return UNKNOWN
    if operator == "-f":
        fmt = as_text(left)
        items = flatten(right)
        return UNKNOWN if fmt is None else _or_unknown(net_format(fmt, [as_text(v) for v in items], items))
    if operator == "-join":
        separator = as_text(right)
        parts = [as_text(v) for v in flatten(left)]
        if separator is None or any(p is None for p in parts):
            return UNKNOWN
        return separator.join(p or "" for p in parts)
    if operator == "..":
        if isinstance(left, int) and isinstance(right, int) and abs(right - left) < _MAX_RANGE:
            step = 1 if right >= left else -1
            return tuple(range(left, right + step, step))
        return UNKNOWN
    if operator in ("-replace", "-ireplace", "-creplace"):
        pair = flatten(right)
        pattern = as_text(pair[0]) if pair else None
        replacement = as_text(pair[1]) if len(pair) > 1 else ""
        if pattern is None or replacement is None:
            return UNKNOWN
        case = operator == "-creplace"
        if isinstance(left, tuple):
            out = tuple(_replace_one(v, pattern, replacement, case) for v in left)
            return UNKNOWN if any(v is UNKNOWN for v in out) else out
        return _replace_one(left, pattern, replacement, case)
    if operator in ("-split", "-isplit", "-csplit"):
        subject, pattern = as_text(left), as_text(flatten(right)[0] if flatten(right) else None)
        if subject is None or pattern is None:
            return UNKNOWN
        return _or_unknown(ps_split(subject, pattern, case_sensitive=operator == "-csplit"))
    return UNKNOWN


def _replace_one(subject: PSValue, pattern: str, replacement: str, case_sensitive: bool) -> PSValue:
    text = as_text(subject)
    if text is None:
        return UNKNOWN
    return _or_unknown(ps_replace(text, pattern, replacement, case_sensitive=case_sensitive))


def _or_unknown(value: str | tuple[str, ...] | None) -> PSValue:
    return UNKNOWN if value is None else value


def string_static(method: str, args: list[PSValue]) -> PSValue:
    """`[string]::Join/Concat/Format/new(args)`, or UNKNOWN."""
    if method == "new":
        return _new_string(args)
    texts = [as_text(v) for v in flatten(tuple(args[1:]))] if method == "join" else []
    if method == "join" and args:
        separator = as_text(args[0])
        if separator is None or any(t is None for t in texts):
            return UNKNOWN
        return separator.join(t or "" for t in texts)
    if method == "concat":
        parts = [as_text(v) for v in flatten(tuple(args))]
        return UNKNOWN if any(p is None for p in parts) else "".join(p or "" for p in parts)
    if method == "format" and args:
        fmt = as_text(args[0])
        items = flatten(tuple(args[1:]))
        return UNKNOWN if fmt is None else _or_unknown(net_format(fmt, [as_text(v) for v in items], items))
    return UNKNOWN


def _new_string(args: list[PSValue]) -> PSValue:
    """The .NET `String` constructors: `(char[])`, `(char[], start, length)`, `(char, count)`."""
    numbers = [a for a in args[1:] if isinstance(a, int) and not isinstance(a, bool)]
    if len(numbers) != len(args) - 1 or len(args) > 3:
        return UNKNOWN
    first = args[0] if args else UNKNOWN
    if len(args) == 2:
        count = numbers[0]
        ok = isinstance(first, str) and len(first) == 1 and 0 <= count <= MAX_STRING
        return first * count if ok and isinstance(first, str) else UNKNOWN
    # PowerShell converts a string argument to the char[] the constructor takes.
    chars = tuple(first) if isinstance(first, str) else first
    if not isinstance(chars, tuple) or not all(isinstance(c, str) and len(c) == 1 for c in chars):
        return UNKNOWN
    text = "".join(c for c in chars if isinstance(c, str))
    if not numbers:
        return text
    begin, length = numbers
    return text[begin : begin + length] if 0 <= begin <= len(text) and 0 <= length <= len(text) - begin else UNKNOWN


def string_method(base: str, method: str, args: list[PSValue]) -> PSValue:  # noqa: C901, PLR0911
    """`base.Method(args)` for the pure string methods (`Replace`, `ToLower`, `Trim`, …), or UNKNOWN."""
    texts = [as_text(a) for a in args]
    if any(t is None for t in texts):
        return UNKNOWN
    plain = [t or "" for t in texts]
    if method in ("tolower", "tolowerinvariant"):
        return base.lower()
    if method in ("toupper", "toupperinvariant"):
        return base.upper()
    if method == "tostring":
        return base
    if method == "replace" and len(plain) == 2 and plain[0]:
        result = base.replace(plain[0], plain[1])  # .NET String.Replace is ordinal, case-sensitive
        return result if len(result) <= MAX_STRING else UNKNOWN
    if method in ("trim", "trimstart", "trimend"):
        # `Trim(params char[])`: every character of every argument is trimmed (`TrimEnd('x','y')`, `TrimEnd('xy')`);
        # none at all, or only empty ones, trims white space.
        chars = "".join(plain) or None
        strip = {"trim": str.strip, "trimstart": str.lstrip, "trimend": str.rstrip}[method]
        return strip(base, chars)
    if method == "substring" and args and all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        start = int(args[0])  # type: ignore[arg-type]
        length = int(args[1]) if len(args) > 1 else len(base) - start  # type: ignore[arg-type]
        if 0 <= start <= len(base) and 0 <= length <= len(base) - start:
            return base[start : start + length]
        return UNKNOWN
    if method == "split" and len(plain) == 1 and len(plain[0]) == 1:
        return tuple(base.split(plain[0]))
    return UNKNOWN
