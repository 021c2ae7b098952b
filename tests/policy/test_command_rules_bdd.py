"""Binds features/command_rules.feature to the public rules API (S-RULE-*).

Steps call the same functions the unit tests call: `load_rules`, `RuleSet.match`,
`RuleSet.exempted_by`.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field

import pytest
from pytest_bdd import given, parsers, scenarios, then, when

from policy.decision import RuleHit
from policy.rules.match import RuleLoadError, RuleSet, load_rules

scenarios("command_rules.feature")


@dataclass
class World:
    rules: RuleSet = field(default_factory=load_rules)
    tool: str = ""
    args: dict[str, object] = field(default_factory=dict)
    error: RuleLoadError | None = None

    def hit(self) -> RuleHit | None:
        return self.rules.match(self.tool, self.args)


@pytest.fixture
def world() -> World:
    return World()


@given("the built-in command rules")
def builtin_rules(world: World) -> None:
    world.rules = load_rules()


@given(parsers.parse('the command rules with allow_rules "{rule_id}"'))
def rules_with_exemption(world: World, rule_id: str) -> None:
    world.rules = load_rules(allow_rules=[rule_id])


@given(parsers.parse('the command rules with a custom rule "{rule_id}" and pattern "{pattern}"'))
def rules_with_custom(world: World, rule_id: str, pattern: str) -> None:
    world.rules = load_rules([{"id": rule_id, "pattern": pattern, "risk": "custom", "reason": "Not allowed."}])


@given(parsers.parse('the command rules with dynamic_commands "{action}"'))
def rules_dynamic(world: World, action: str) -> None:
    world.rules = load_rules(dynamic_commands=action)


@when(parsers.parse("the rules benchmark runs with {rounds:d} rounds"), target_fixture="bench")
def bench_runs(rounds: int) -> dict[str, object]:
    import subprocess
    import sys

    from tests._requirements import REPO

    script = [sys.executable, str(REPO / "scripts" / "bench_rules.py"), "--rounds", str(rounds), "--corpus-rounds", "1"]
    done = subprocess.run([*script, "--json"], capture_output=True, text=True, timeout=300, check=True, cwd=REPO)
    report: dict[str, object] = json.loads(done.stdout)
    return report


@then("it reports p50 and p95 of the text rules, the analyser and the whole match for the 2 KB script")
def bench_reports(bench: dict[str, object]) -> None:
    rows = {row["case"]: row for row in bench["rows"]}  # type: ignore[attr-defined]
    script = rows["2 KB script"]
    for method in ("text rules", "analyser", "match"):
        assert script[method]["p95_us"] >= script[method]["p50_us"] > 0


@when(parsers.parse("PowerShell is asked to run a command of {size:d} characters"))
def powershell_huge(world: World, size: int) -> None:
    world.tool, world.args = "PowerShell", {"command": ("Get-Date; " * (size // 10 + 1))[:size]}


@when(parsers.parse('"{tool}" is called with {arguments}'))
def tool_called(world: World, tool: str, arguments: str) -> None:
    world.tool, world.args = tool, json.loads(arguments)


@given(parsers.parse('the command rules protecting "{path}"'))
def rules_protecting(world: World, path: str) -> None:
    world.rules = load_rules(protected_paths=[path])


@when(parsers.parse('PowerShell is asked to run the encoded command "{command}"'))
def powershell_encoded(world: World, command: str) -> None:
    payload = base64.b64encode(command.encode("utf-16-le")).decode("ascii")
    world.tool, world.args = "PowerShell", {"command": f"powershell -NoProfile -EncodedCommand {payload}"}


@when(parsers.parse('PowerShell is asked to run "{command}" with each <TAB> a tab'))
def powershell_with_tabs(world: World, command: str) -> None:
    world.tool, world.args = "PowerShell", {"command": command.replace("<TAB>", "\t")}


@when(parsers.parse('PowerShell is asked to run "{command}"'))
def powershell(world: World, command: str) -> None:
    world.tool, world.args = "PowerShell", {"command": command}


@when(parsers.parse('FileSystem is called with mode "{mode}", path "{path}" and recursive "{recursive}"'))
def filesystem(world: World, mode: str, path: str, recursive: str) -> None:
    world.tool, world.args = "FileSystem", {"mode": mode, "path": path, "recursive": recursive}


@when(parsers.parse('App is called with mode "{mode}" and name "{name}"'))
def app(world: World, mode: str, name: str) -> None:
    world.tool, world.args = "App", {"mode": mode, "name": name}


@when(parsers.parse('Process is called with mode "{mode}", name "{name}" and force "{force}"'))
def process(world: World, mode: str, name: str, force: str) -> None:
    world.tool, world.args = "Process", {"mode": mode, "name": name, "force": force}


@when(parsers.parse('a custom rule "{rule_id}" with pattern "{pattern}" is loaded'))
def load_custom(world: World, rule_id: str, pattern: str) -> None:
    try:
        load_rules([{"id": rule_id, "pattern": pattern, "risk": "custom", "reason": "Not allowed."}])
    except RuleLoadError as exc:
        world.error = exc


@then(parsers.parse('the call hits rule "{rule_id}" with action "{action}"'))
def hits(world: World, rule_id: str, action: str) -> None:
    hit = world.hit()
    assert hit is not None, f"{world.tool} {world.args} hit no rule"
    assert (hit.rule_id, hit.action) == (rule_id, action)


@then("the call hits no rule")
def hits_nothing(world: World) -> None:
    assert world.hit() is None


@then(parsers.parse('the exempted rules are "{rule_ids}"'))
def exempted(world: World, rule_ids: str) -> None:
    assert world.rules.exempted_by(world.tool, world.args) == tuple(rule_ids.split(","))


@then(parsers.parse('loading fails naming "{rule_id}"'))
def load_failed(world: World, rule_id: str) -> None:
    assert world.error is not None and rule_id in str(world.error)


# -- S-RULE-06 / S-RULE-11: the corpus and totality (steps added by the lead) --------------------
@dataclass
class CorpusRun:
    wrong: list[tuple[str, object, str, str | None]] = field(default_factory=list)
    false_hits: list[tuple[str, object, str]] = field(default_factory=list)
    hit_ids: set[str] = field(default_factory=set)
    errors: list[str] = field(default_factory=list)


@pytest.fixture
def corpus_run() -> CorpusRun:
    return CorpusRun()


@given("the built-in command rules guarding the gateway's own files")
def rules_guarding(world: World) -> None:
    from tests.policy.test_rules_corpus import PROTECTED

    world.rules = load_rules(protected_paths=PROTECTED)


@when("the dangerous and the ordinary corpus are matched")
def match_corpus(world: World, corpus_run: CorpusRun) -> None:
    from tests.policy.rule_corpus import DANGEROUS, ORDINARY

    for tool, args, expected in DANGEROUS:
        hit = world.rules.match(tool, args)
        if hit is not None:
            corpus_run.hit_ids.add(hit.rule_id)
        if hit is None or hit.rule_id != expected:
            corpus_run.wrong.append((tool, args, expected, hit.rule_id if hit else None))
    for tool, args in ORDINARY:
        hit = world.rules.match(tool, args)
        if hit is not None:
            corpus_run.false_hits.append((tool, args, hit.rule_id))


@then("every dangerous call hit its expected rule")
def every_dangerous(corpus_run: CorpusRun) -> None:
    assert corpus_run.wrong == []


@then("no ordinary call hit a rule")
def no_ordinary(corpus_run: CorpusRun) -> None:
    assert corpus_run.false_hits == []


@then("every built-in rule was hit by the corpus")
def every_builtin(corpus_run: CorpusRun) -> None:
    from policy.rules.match import builtin_rule_ids

    assert set(builtin_rule_ids()) - corpus_run.hit_ids == set()


@when("calls with missing, null, numeric, list and deeply nested arguments are matched")
def odd_shapes(world: World, corpus_run: CorpusRun) -> None:
    shapes: list[dict[str, object]] = [
        {},
        {"command": None},
        {"command": 42},
        {"command": ["rm", "-r"]},
        {"mode": None, "path": 7},
        {"mode": "delete", "path": {"nested": [1, 2]}, "recursive": [True]},
        {"args": "[not json"},
        {"command": "`" * 5000},
        {"executable": None, "args": None, "cwd": 3.5},
    ]
    for tool in ("PowerShell", "FileSystem", "Registry", "Process", "App", "Shortcut", "Notification"):
        for args in shapes:
            try:
                world.rules.match(tool, args)
            except Exception as exc:  # noqa: BLE001 - the assertion below reports it
                corpus_run.errors.append(f"{tool} {args!r}: {type(exc).__name__}: {exc}")
    world.tool, world.args = "PowerShell", {"command": "powershell -c " * 200 + "Get-Date"}


@then("matching raised nothing")
def raised_nothing(corpus_run: CorpusRun) -> None:
    assert corpus_run.errors == []


@then(parsers.parse('a command nested 200 layers deep hits rule "{rule_id}" with action "{action}"'))
def nested_hits(world: World, rule_id: str, action: str) -> None:
    hit = world.hit()
    assert hit is not None and hit.rule_id == rule_id and hit.action == action


@when("every corpus call is judged", target_fixture="judged")
def _judge_corpus(world: World) -> list[str]:
    from tests.policy import golden

    return golden.current_lines(world.rules)


@then("each judgement equals its line in the golden file, in corpus order")
def _golden_lines(judged: list[str]) -> None:
    from tests.policy import golden

    assert judged == golden.recorded_lines()
