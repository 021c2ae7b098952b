"""git commands that throw away uncommitted work (S-RULE-83); git's own `-C` before `clean` (S-RULE-67).

Found by an attacker pass: `git reset --hard` and `git checkout -- .` were forwarded, and
`git -C C:\\src\\app clean -fd` passed because the folder after `-C` was read as the subcommand.
"""

from __future__ import annotations

import pytest

from policy.rules.command import judge_call
from policy.rules.shell.ops import EffectKind
from tests._requirements import requirement
from tests.policy.verdicts import ps, verdict

DISCARD = ("wildcard-delete", "ask")


@requirement("S-RULE-83")
@pytest.mark.parametrize(
    "command",
    [
        "git reset --hard",
        "git reset --hard HEAD~3",
        "git reset --hard origin/main",
        "git -C C:\\src\\app reset --hard",
        "git checkout -- .",
        "git checkout .",
        "git checkout HEAD -- .",
        "git checkout -- ..\\",
        "git checkout -- src/",
        "git checkout -- *.cs",
        "git checkout -- :/",
        "git checkout -f main",
        "git checkout --force main",
        "git restore .",
        "git restore -W :/",
        "git restore --worktree --staged .",
        "git restore -SW .",
        "git restore --source HEAD~2 src/*",
        "git switch --discard-changes main",
        "git switch -f main",
        "git stash clear",
        "GIT RESET --HARD",
        "git.exe reset --hard",
        "& 'C:\\Program Files\\Git\\cmd\\git.exe' checkout .",
        'cmd /c "git reset --hard"',
        "git restore -- ':(top)'",
        "git restore $paths",  # restore takes only paths: one that is not constant may be all
    ],
)
def test_throwing_away_the_trees_uncommitted_work_asks(command: str) -> None:
    """S-RULE-83: git keeps no copy of changes never committed; a person decides."""
    assert ps(command) == DISCARD


@requirement("S-RULE-83")
@pytest.mark.parametrize(
    "command",
    [
        "git checkout -- README.md",  # one file, like the delete of one file
        "git restore src\\app.py",
        "git restore --staged .",  # the index only: the files keep their changes
        "git restore -S .",
        "git reset",
        "git reset HEAD~1",
        "git reset --soft HEAD~1",
        "git reset --keep HEAD~1",  # refuses to lose local changes
        "git reset --merge",
        "git checkout main",
        "git checkout -b feature",
        "git checkout $branch",  # a branch: git refuses to overwrite changes to switch
        "git switch main",
        "git switch -c feature",
        "git stash",
        "git stash pop",
        "git stash drop",  # one entry
        "git push --force",  # another machine's branch; the commits stay in this reflog
        "git push -f origin main",
        "git push --force-with-lease",
        "git status",
        "git diff",
        "git log --oneline -5",
    ],
)
def test_one_file_the_index_and_other_machines_pass(command: str) -> None:
    """S-RULE-83: a named file, the index, branch switches and pushes are not the tree's work lost."""
    assert ps(command) is None


@requirement("S-RULE-83")
@pytest.mark.parametrize(
    ("command", "target"),
    [
        ("git reset --hard", "."),
        ("git -C C:\\src\\app reset --hard", "C:\\src\\app"),
        ("git -C C:\\src -C app checkout .", "C:\\src\\app"),
        ("git --work-tree D:\\w checkout -- .", "D:\\w"),
        ("git --work-tree D:\\w restore .", "D:\\w"),
    ],
)
def test_the_tree_named_by_gits_own_options_is_the_one_overwritten(command: str, target: str) -> None:
    """S-RULE-83: `-C` and `--work-tree` before the subcommand name the working tree."""
    effects = [e for e in judge_call("PowerShell", {"command": command}).effects if e.kind is EffectKind.WRITE]
    assert [e.target for e in effects] == [target]


@requirement("S-RULE-83")
def test_the_refusal_names_the_work_lost_and_a_read_only_remedy() -> None:
    """S-RULE-83: the reason says what is lost and suggests only `git status`/`git diff`."""
    hit = judge_call("PowerShell", {"command": "git reset --hard"}).hits[0]
    assert "uncommitted" in hit.reason
    assert "`git status`" in hit.reason and "`git diff`" in hit.reason


@requirement("S-RULE-83")
def test_a_protected_folder_stays_refused() -> None:
    """S-RULE-83: a tree in Program Files is a write there, refused as before."""
    assert ps("git -C 'C:\\Program Files\\tool' checkout .") == ("protected-place-write", "deny")


@requirement("S-RULE-67", "S-RULE-83")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("git -C C:\\src\\app clean -fd", ("recursive-delete", "deny")),
        ("git -C C:\\src\\app clean -fdx build", ("recursive-delete", "deny")),
        ("git --work-tree=C:\\src\\app clean -fdx", ("recursive-delete", "deny")),
        ("git -c core.quotepath=off clean -fd build", ("recursive-delete", "deny")),
        ("git -C C:\\Users\\me clean -fdx", ("protected-place-delete", "deny")),
        ("git -C C:\\src\\app clean -n -d", None),
        ("git -C C:\\src\\app clean -f", None),
        ("git -C C:\\src\\app status", None),
    ],
)
def test_git_clean_below_the_folder_named_by_dash_capital_c(command: str, expected: tuple[str, str] | None) -> None:
    """S-RULE-67: `-C dir` is git's own option; the clean deletes below that folder."""
    assert ps(command) == expected


@requirement("S-RULE-83")
def test_cmd_spelling_of_a_hard_reset_asks() -> None:
    """S-RULE-83: cmd.exe runs the same git."""
    assert verdict("PowerShell", command='cmd /c "cd /d C:\\src\\app && git reset --hard"') == DISCARD
