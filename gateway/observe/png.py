"""Read a PNG's pixel size from its header (IHDR) without decoding the image.

The mapping must use the size of the image the model actually sees (DESIGN.md §3,
S-OBS-11), and the only trustworthy source for that is the image itself: the text's
`Screenshot Size` is upstream's claim, the PNG header is the fact. A PNG starts with an
8-byte signature followed by the IHDR chunk (4-byte length = 13, b"IHDR", then width
and height as big-endian uint32), so the first 24 bytes are enough; decoding only a
base64 prefix keeps this O(1) in the image size.
"""

from __future__ import annotations

import base64
import binascii
import struct

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_HEADER_BYTES = 24  # signature (8) + IHDR length (4) + b"IHDR" (4) + width (4) + height (4)
_HEADER_B64_CHARS = 32  # 24 bytes are exactly 32 base64 characters
_MAX_DIMENSION = 2**31 - 1  # the PNG specification's limit for width and height


def png_size(data: bytes) -> tuple[int, int] | None:
    """Return `(width, height)` from a PNG header, or None if `data` is not a PNG.

    Args:
        data: the file's bytes (only the first 24 are read).

    Returns:
        The pixel size, or None when the signature, the IHDR chunk or the dimensions are invalid.
    """
    if len(data) < _HEADER_BYTES or not data.startswith(PNG_SIGNATURE):
        return None
    length, chunk_type, width, height = struct.unpack(">I4sII", data[8:_HEADER_BYTES])
    if length != 13 or chunk_type != b"IHDR":
        return None
    if not (0 < width <= _MAX_DIMENSION and 0 < height <= _MAX_DIMENSION):
        return None
    return width, height


def png_size_from_base64(data: str) -> tuple[int, int] | None:
    """Return `(width, height)` of a base64-encoded PNG, decoding only its first characters.

    Args:
        data: the base64 text of an MCP image content item (whitespace tolerated).

    Returns:
        The pixel size, or None when the text is not base64 of a PNG.
    """
    if not isinstance(data, str):
        return None
    # Whitespace may be interleaved (MIME-style line breaks); take enough of the prefix to
    # find 32 significant characters, then drop the whitespace.
    prefix = "".join(data[: _HEADER_B64_CHARS * 4].split())[:_HEADER_B64_CHARS]
    if len(prefix) < _HEADER_B64_CHARS:
        return None
    try:
        head = base64.b64decode(prefix, validate=True)
    except (binascii.Error, ValueError):
        return None
    return png_size(head)
