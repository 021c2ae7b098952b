"""What the PowerShell analyser costs per call, as ratios against today's text rules measured in the same run.

    .venv/bin/python scripts/bench_rules.py [--rounds 300] [--corpus-rounds 5] [--json] [--check]
                                            [--profile N | --stages]

Columns, per case (µs per call, p50 and p95 over the samples; the ratio is of the p50s):
  text rules   `tool_views` + every built-in regex rule and predicate for the tool: the baseline
  analyser     `dispatch.analyse_tool` with its cache cleared before each call (the first judgement
               of a command pays this; later judgements of the same call hit the cache)
  cached       the same call answered from the analysis cache
  match        the whole `load_rules().match(tool, args)` (analysis cache cleared before each call)

Cases: a realistic 2 KB maintenance script, the dense 2 KB script the analyser was first
measured on (issue 18), a one-liner, and every PowerShell command of the rule corpus
(`tests/policy/rule_corpus.py`, DANGEROUS + ORDINARY; each sample is one command). The three
measurements are interleaved, one call of each in turn, so a load change hits all of them alike.
Budget (issue 18): the analyser's p95 on each 2 KB script at most 1 ms. The machine is shared:
the load average is printed with the result, and the numbers are for comparing, not promises.
Exits 0, or with --check 1 when a 2 KB script is over budget. `--profile N` instead prints the N
functions with the most own time (cProfile) over the uncached analyser on the two 2 KB scripts, to
explain a budget miss; cProfile inflates functions called often, so read it for ranking, not µs.
`--stages` instead splits the uncached analyser's cost on each 2 KB script into its stages, p50/p95
over the rounds: `parse_text` (the text's preparation, the grammar-gap repair of `ps_repair` where
needed, the parse), the tree-sitter parse alone (C, not ours to speed up; `parse_text` less this is
preparation and repair) and the walk (`ps_walk` and the modules under it) on a fresh tree.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from policy.rules.effects_common import program_stem  # noqa: E402
from policy.rules.effects_dispatch import effects_of  # noqa: E402
from policy.rules.match import BUILTIN_RULES, load_rules, tool_views  # noqa: E402
from policy.rules.shell.dispatch import analyse_program, analyse_tool  # noqa: E402
from policy.rules.shell.powershell import clear_analysis_cache  # noqa: E402
from policy.rules.shell.ps_tree import PARSER, parse_text  # noqa: E402
from policy.rules.shell.ps_walk import Walker  # noqa: E402
from tests.policy.rule_corpus import DANGEROUS, ORDINARY  # noqa: E402

BUDGET_US = 1000.0  # issue 18: p95 ≤ 1 ms for a 2 KB command on the project's 2-core machine
BUDGET_CASES = ("2 KB script", "2 KB dense")

SCRIPT = r"""# Nightly housekeeping for the build agent
$ErrorActionPreference = 'Stop'
$root = 'C:\BuildAgent\work'
$logDir = Join-Path $env:ProgramData 'BuildAgent\logs'
$cutoff = (Get-Date).AddDays(-14)
if (-not (Test-Path $logDir)) { New-Item -ItemType Directory -Path $logDir -Force | Out-Null }
Start-Transcript -Path (Join-Path $logDir 'cleanup.log') -Append
$old = Get-ChildItem -Path $root -Directory | Where-Object { $_.LastWriteTime -lt $cutoff }
foreach ($dir in $old) {
    Write-Host "Removing $($dir.FullName)"
    Remove-Item -LiteralPath $dir.FullName -Recurse -Force -ErrorAction SilentlyContinue
}
$free = (Get-PSDrive -Name C).Free / 1GB
Write-Output ("Free space on C: {0:N1} GB" -f $free)
Get-Service -Name 'BuildAgent*' | Where-Object Status -ne 'Running' | Start-Service
$procs = Get-Process | Sort-Object WorkingSet64 -Descending | Select-Object -First 10 Name, Id, WorkingSet64
$procs | Format-Table -AutoSize | Out-String | Write-Host
$cfg = Get-Content -Raw -Path "$root\agent.json" | ConvertFrom-Json
if ($cfg.cleanTemp) {
    Get-ChildItem $env:TEMP -File -Recurse | Where-Object { $_.LastWriteTime -lt $cutoff } | Remove-Item -Force
}
$report = [ordered]@{ Host = $env:COMPUTERNAME; Removed = $old.Count; FreeGB = [math]::Round($free, 1) }
$report | ConvertTo-Json | Set-Content -Path (Join-Path $logDir 'last-run.json') -Encoding UTF8
try {
    Invoke-WebRequest -Uri 'https://status.example.com/ping' -UseBasicParsing -TimeoutSec 10 | Out-Null
} catch {
    Write-Warning "status ping failed: $($_.Exception.Message)"
}
$events = Get-WinEvent -LogName Application -MaxEvents 50 | Where-Object { $_.LevelDisplayName -eq 'Error' }
$csv = Join-Path $logDir 'errors.csv'
$events | Select-Object TimeCreated, ProviderName, Id | Export-Csv -Path $csv -NoTypeInformation
git -C $root status --short
robocopy "$root\artifacts" "\\fileserver\drops\$env:COMPUTERNAME" /MIR /R:2 /W:5 /NP
Get-ChildItem "$root\cache" -Filter *.tmp | Remove-Item -Force
Stop-Transcript
"""
_DENSE_UNIT = r"""$files = Get-ChildItem -Path 'C:\Users\me\Documents' -Filter '*.log' -Recurse
foreach ($f in $files) { if ($f.Length -gt 1048576) { Write-Output "big: $($f.FullName)" } }
$c = 'Get-' + 'Process'; & $c | Where-Object { $_.CPU -gt 10 } | Select-Object -First 5
Remove-Item -Path "$env:TEMP\build" -Recurse -Force -ErrorAction SilentlyContinue
"""
DENSE = (_DENSE_UNIT * 20)[:2048]
ONE_LINER = "Get-ChildItem C:\\Users\\me -Recurse | Where-Object { $_.Length -gt 1MB } | Remove-Item -Force"

Args = Mapping[str, object]


def corpus_commands() -> list[Args]:
    """The rule corpus's PowerShell calls (dangerous and ordinary), as tool arguments."""
    calls: list[Args] = [args for tool, args, _ in DANGEROUS if tool == "PowerShell"]
    return calls + [args for tool, args in ORDINARY if tool == "PowerShell"]


def text_rules(args: Args) -> object:
    """Today's text rules alone: the views, then every built-in regex rule and predicate."""
    views = tool_views("PowerShell", args)
    return [r.id for r in BUILTIN_RULES if r.hits("PowerShell", args, lambda: views)]


def analyser(args: Args) -> object:
    """The analyser, uncached (the first judgement of a command)."""
    clear_analysis_cache()
    return analyse_tool("PowerShell", args)


def cached(args: Args) -> object:
    """The analyser answering from its cache (a call judged again)."""
    return analyse_tool("PowerShell", args)


RULES = load_rules()


def whole_match(args: Args) -> object:
    """The whole rule set's `match`, the analysis and effect caches cleared first (a command judged the first time)."""
    clear_analysis_cache()
    effects_of.cache_clear()
    program_stem.cache_clear()
    return RULES.match("PowerShell", args)


METHODS: dict[str, Callable[[Args], object]] = {
    "text rules": text_rules,
    "analyser": analyser,
    "cached": cached,
    "match": whole_match,
}


def measure(cases: dict[str, list[Args]], rounds: dict[str, int]) -> dict[str, dict[str, list[float]]]:
    """Samples in µs per case and method, the methods interleaved call by call (rotating their order)."""
    samples: dict[str, dict[str, list[float]]] = {case: {m: [] for m in METHODS} for case in cases}
    names = list(METHODS)
    for case, calls in cases.items():
        for args in calls:  # warm up: imports, regex compiles, the places/paths caches
            for fn in METHODS.values():
                fn(args)
        for r in range(rounds[case]):
            order = names[r % len(names) :] + names[: r % len(names)]
            for args in calls:
                for name in order:
                    fn = METHODS[name]
                    if name == "cached":
                        analyse_tool("PowerShell", args)  # make sure the entry is there
                    start = time.perf_counter()
                    fn(args)
                    samples[case][name].append((time.perf_counter() - start) * 1e6)
    return samples


def percentile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of the samples, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    """Measure, print a table (or JSON), and judge the 2 KB budget."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300, help="samples per method for each script case")
    parser.add_argument(
        "--corpus-rounds", type=int, default=5, help="passes over the corpus per method (0: leave the corpus out)"
    )
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a 2 KB script's analyser p95 > 1 ms")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the analyser's top N functions")
    parser.add_argument("--stages", action="store_true", help="split each 2 KB script's cost: parse_text, walk")
    args = parser.parse_args(argv)
    if args.profile:
        profile_analyser(args.rounds, args.profile)
        return 0
    if args.stages:
        print_stages(args.rounds)
        return 0
    cases: dict[str, list[Args]] = {
        "2 KB script": [{"command": SCRIPT}],
        "2 KB dense": [{"command": DENSE}],
        "one-liner": [{"command": ONE_LINER}],
        "corpus": corpus_commands(),
    }
    if args.rounds < 1:
        parser.error("--rounds must be at least 1 (the budget cases need samples)")
    if args.corpus_rounds < 1:
        del cases["corpus"]  # `--corpus-rounds 0`: the budget cases only
    rounds = {case: args.rounds for case in cases} | ({"corpus": args.corpus_rounds} if "corpus" in cases else {})
    gc.collect()
    load_before = os.getloadavg()
    samples = measure(cases, rounds)
    load_after = os.getloadavg()
    rows = []
    for case, by_method in samples.items():
        base = statistics.median(by_method["text rules"])
        row: dict[str, object] = {
            "case": case,
            "chars": max(len(str(c["command"])) for c in cases[case]),
            "calls": len(cases[case]),
            "samples": len(by_method["text rules"]),
        }
        for name, values in by_method.items():
            p50, p95 = statistics.median(values), percentile(values, 0.95)
            row[name] = {"p50_us": round(p50, 1), "p95_us": round(p95, 1), "x_text_rules": round(p50 / base, 2)}
        rows.append(row)
    over = [
        r["case"]
        for r in rows
        if r["case"] in BUDGET_CASES and r["analyser"]["p95_us"] > BUDGET_US  # type: ignore[index]
    ]
    result = {
        "rows": rows,
        "budget_us": BUDGET_US,
        "within_budget": not over,
        "over_budget": over,
        "load_average": {"before": load_before, "after": load_after},
        "cpus": os.cpu_count(),
    }
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        _print_table(result)
    return 1 if args.check and over else 0


def profile_analyser(rounds: int, top: int) -> None:
    """Print the `top` functions by own time over `rounds` uncached analyses of each 2 KB script."""
    calls = [{"command": SCRIPT}, {"command": DENSE}]
    for args in calls:  # warm up, as `measure` does
        analyser(args)
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(rounds):
        for args in calls:
            analyser(args)
    profiler.disable()
    pstats.Stats(profiler, stream=sys.stdout).sort_stats("tottime").print_stats(top)


def stage_samples(text: str, rounds: int) -> dict[str, list[float]]:
    """µs per stage of one uncached analysis of `text`, `rounds` samples each (see the module docstring)."""
    samples: dict[str, list[float]] = {"parse_text": [], "of it tree-sitter": [], "walk": []}
    for _ in range(rounds):
        start = time.perf_counter()
        parsed = parse_text(text)  # prepare, the repair where needed, the parse
        samples["parse_text"].append((time.perf_counter() - start) * 1e6)
        parsed_bytes = parsed.tree.root_node.text or b""  # what the grammar read (the repair, if any)
        start = time.perf_counter()
        tree = PARSER.parse(parsed_bytes)
        samples["of it tree-sitter"].append((time.perf_counter() - start) * 1e6)
        walker = Walker(analyse_program, 0)
        start = time.perf_counter()
        walker.walk_in(parsed.source, tree.root_node)
        samples["walk"].append((time.perf_counter() - start) * 1e6)
    return samples


def print_stages(rounds: int) -> None:
    """Print p50/p95 per stage of the uncached analyser on each 2 KB script."""
    for name, text in (("2 KB script", SCRIPT), ("2 KB dense", DENSE)):
        stage_samples(text, 5)  # warm up, as `measure` does
        gc.collect()
        cells = [
            f"{stage} {statistics.median(values):5.0f} /{percentile(values, 0.95):5.0f}"
            for stage, values in stage_samples(text, rounds).items()
        ]
        print(f"{name:12} µs p50 / p95: " + " | ".join(cells))


def _print_table(result: dict[str, object]) -> None:
    load = result["load_average"]
    assert isinstance(load, dict)
    print(
        f"PowerShell rules cost per call, µs (p50 / p95; × = p50 ratio to text rules); {result['cpus']} CPUs,"
        f" load average {load['before'][0]:.2f} before, {load['after'][0]:.2f} after"
    )
    header = f"{'case':12} {'chars':>6} {'n':>6}"
    for name in METHODS:
        header += f" | {name:>22}"
    print(header)
    rows = result["rows"]
    assert isinstance(rows, list)
    for row in rows:
        line = f"{row['case']:12} {row['chars']:>6} {row['samples']:>6}"
        for name in METHODS:
            cell = row[name]
            line += f" | {cell['p50_us']:7.0f} /{cell['p95_us']:7.0f} {cell['x_text_rules']:5.1f}×"
        print(line)
    verdict = "within" if result["within_budget"] else "OVER " + ", ".join(result["over_budget"])  # type: ignore[arg-type]
    print(f"budget: analyser p95 ≤ {result['budget_us']:.0f} µs on each 2 KB script: {verdict}")


if __name__ == "__main__":
    raise SystemExit(main())
