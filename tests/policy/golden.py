"""The whole judgement of every rule-corpus call, as one JSON line each (S-RULE-62).

`tests/policy/golden_judgements.jsonl` records, for each call of `rule_corpus.DANGEROUS` and
`ORDINARY`, what a person would read and what the analyser found: the rule hit (id, action, risk,
reason with its remedy) and every effect (kind, target as written, the phrase a reason quotes,
registry value name and data, extra facts). The corpus tests check the verdict; this file pins the
words and targets behind it, so a change to any of them shows up as a reviewed diff.

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/policy/test_golden_judgements.py

rewrites the file from the current rules; review `git diff` before committing it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from policy.rules.command import judge_call
from policy.rules.match import RuleSet
from tests.policy.rule_corpus import DANGEROUS, ORDINARY

GOLDEN = Path(__file__).with_name("golden_judgements.jsonl")
UPDATE_ENV = "UPDATE_GOLDEN"


def corpus_calls() -> Iterator[tuple[str, Mapping[str, object]]]:
    """Every corpus call in corpus order: the dangerous ones, then the ordinary ones."""
    for tool, args, _ in DANGEROUS:
        yield tool, args
    yield from ORDINARY


def judgement(rules: RuleSet, tool: str, args: Mapping[str, object]) -> dict[str, Any]:
    """One call's judgement as plain JSON data."""
    hit = rules.match(tool, args)
    effects = [
        [e.kind.value, e.target, e.detail, e.value_name, e.data, [list(x) for x in e.extra]]
        for e in judge_call(tool, args).effects
    ]
    return {
        "tool": tool,
        "args": args,
        "hit": None if hit is None else [hit.rule_id, hit.action, hit.risk, hit.reason],
        "effects": effects,
    }


def line(entry: Mapping[str, Any]) -> str:
    return json.dumps(entry, ensure_ascii=False, sort_keys=True)


def current_lines(rules: RuleSet) -> list[str]:
    return [line(judgement(rules, tool, args)) for tool, args in corpus_calls()]


def recorded_lines() -> list[str]:
    return GOLDEN.read_text(encoding="utf-8").splitlines() if GOLDEN.exists() else []


def update_requested() -> bool:
    return os.environ.get(UPDATE_ENV, "") not in ("", "0")


def write(lines: list[str]) -> None:
    GOLDEN.write_text("".join(f"{x}\n" for x in lines), encoding="utf-8", newline="\n")
