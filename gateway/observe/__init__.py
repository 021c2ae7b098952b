"""Reading what came back: Snapshot prose, the UI tree, PNG facts, coordinates, the annotation line.

`parse_result` turns a capture result into a capture (or a `CaptureFailure`); `derive_mapping`
relates its image to the screen; `annotation_line` is the `[gateway] obs=` line.
"""

from gateway.observe.annotation import annotation_line
from gateway.observe.coords import derive_mapping, image_to_screen, screen_to_image
from gateway.observe.parse import CaptureFailure, parse_result
from gateway.observe.png import png_size

__all__ = [
    "CaptureFailure",
    "annotation_line",
    "derive_mapping",
    "image_to_screen",
    "parse_result",
    "png_size",
    "screen_to_image",
]
