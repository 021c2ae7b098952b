"""Byte-for-byte reproduction of upstream's Snapshot/Screenshot samples (S-SIM-04, S-SIM-06).

Each sample is replayed on a fresh server with the scenario matching the sample's upstream
scenario id and the exact arguments and environment recorded in its ``.result.json``. The
expected bytes are read from tests/upstream_data/samples at test time. Scrollable points need
no special treatment: each built-in scenario fixes them to the point the sample printed.
"""

from __future__ import annotations

import base64
import io
import json
from typing import Any

import pytest
from PIL import Image

from gateway.sim import build_server
from tests._requirements import SAMPLES, requirement
from tests.sim._sim import SCENARIO_OF, call, connect, sample

pytestmark = pytest.mark.anyio

STEMS = sorted(p.name[: -len(".result.json")] for p in SAMPLES.glob("*.result.json"))
REQUIRED = {"01", "02", "03", "04a", "04b", "05", "07", "08", "09", "10", "10b", "11", "12"}


async def _replay(stem: str, mode: str) -> tuple[dict[str, Any], dict[str, Any], Any]:
    recorded = sample(stem, "result.json")
    server = build_server(SCENARIO_OF[recorded["scenario"]], environ=recorded["env"])
    async with connect(server, mode) as client:
        result = await call(client, recorded["tool"], recorded["arguments"])
    return recorded, result, server.simulator  # type: ignore[attr-defined]


@requirement("S-SIM-04")
def test_every_required_sample_is_covered() -> None:
    """S-SIM-04: the replayed set contains all thirteen samples the simulator must reproduce."""
    assert {stem.split("_")[0] for stem in STEMS} >= REQUIRED


@requirement("S-SIM-04")
@pytest.mark.parametrize("stem", STEMS)
async def test_text_item_is_byte_identical(stem: str) -> None:
    """S-SIM-04: the first text item equals the sample's .txt file byte for byte."""
    _, result, _ = await _replay(stem, "legacy")
    expected = (SAMPLES / f"{stem}.txt").read_bytes()
    assert result["content"][0]["text"].encode("utf-8") == expected


@requirement("S-SIM-04")
@pytest.mark.parametrize("stem", STEMS)
async def test_whole_result_matches_in_the_2026_era(stem: str) -> None:
    """S-SIM-04: the whole 2026-era result equals the recorded one; an image has the sample's pixel size."""
    recorded, result, _ = await _replay(stem, "auto")
    expected = recorded["result"]
    assert len(result["content"]) == len(expected["content"])
    if len(expected["content"]) == 2:
        image = result["content"][1]
        assert image["type"] == "image" and image["mimeType"] == "image/png"
        with (
            Image.open(io.BytesIO(base64.b64decode(image["data"]))) as png,
            Image.open(SAMPLES / f"{stem}.png") as ref,
        ):
            assert png.format == "PNG"
            assert png.size == ref.size
        result = {**result, "content": [result["content"][0], expected["content"][1]]}
    assert result == expected


@requirement("S-SIM-04")
@pytest.mark.parametrize("stem", [s for s in STEMS if (SAMPLES / f"{s}.decoded.txt").exists()])
async def test_json_envelope_decodes_to_the_decoded_sample(stem: str) -> None:
    """S-SIM-04: without an image the text is a JSON array whose item is the .decoded.txt text."""
    _, result, _ = await _replay(stem, "legacy")
    items = json.loads(result["content"][0]["text"])
    assert items == [sample(stem, "decoded.txt")]


@requirement("S-SIM-06", "S-SIM-04")
@pytest.mark.parametrize("stem", STEMS)
async def test_label_table_equals_the_sample(stem: str) -> None:
    """S-SIM-06: after the call the server-side label table equals the sample's labels.json."""
    _, _, simulator = await _replay(stem, "legacy")
    table = simulator.label_table()
    assert (table or []) == sample(stem, "labels.json")
