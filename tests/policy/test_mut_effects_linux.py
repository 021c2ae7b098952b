"""Linux commands through WSL as effects on Windows' drives (S-RULE-18); found by mutation testing."""

from __future__ import annotations

import pytest

from policy.rules.effects_common import LANDED, RECURSIVE, effect
from policy.rules.effects_linux import linux_effects, wsl_path
from policy.rules.shell.ops import Effect, EffectKind, Value
from tests._requirements import requirement

K = EffectKind
INTO = LANDED  # S-RULE-147: where a copy or move into a folder lands
TREE_INTO = (*RECURSIVE, *LANDED)


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("path", "windows"),
    [
        ("/mnt/c", "c:\\"),
        ("/mnt/D/Data/x", "d:\\Data\\x"),
        ("/", "c:\\"),
        ("/mnt/", "c:\\"),
        ("//", "c:\\"),
        ("/mntx", "\\\\wsl.localhost\\linux\\mntx"),
        ("/X", "x:\\"),  # Git for Windows' and MSYS2's name of drive X: (S-RULE-138)
        ("/XY", "\\\\wsl.localhost\\linux\\XY"),
        ("/etc/passwd", "\\\\wsl.localhost\\linux\\etc\\passwd"),
        ("$HOME/x", "\\\\wsl.localhost\\linux\\home\\user\\x"),
        ("${HOME}", "\\\\wsl.localhost\\linux\\home\\user"),
        ("~/.ssh", "\\\\wsl.localhost\\linux\\home\\user\\.ssh"),
        ("a/b", "a\\b"),  # relative: the Windows current directory
        (None, None),
    ],
)
def test_a_linux_path_is_mapped_to_the_windows_place_it_names(path: Value, windows: Value) -> None:
    """S-RULE-18: /mnt/<drive> is that drive; / and /mnt stand for the system drive; the rest is the distro's share."""
    assert wsl_path(path) == windows


def _wsl(line: str) -> tuple[Effect, ...]:
    return linux_effects("bash", ("-c", line))


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("rm /mnt/c/a", [effect(K.DELETE, "c:\\a", "wsl rm")]),
        ("rm -R /mnt/c/a", [effect(K.DELETE_RECURSIVE, "c:\\a", "wsl rm -r")]),
        ("rm -fr /mnt/c/a", [effect(K.DELETE_RECURSIVE, "c:\\a", "wsl rm -r")]),
        ("rm --recursive /mnt/c/a", [effect(K.DELETE_RECURSIVE, "c:\\a", "wsl rm -r")]),
        ("rm --force /mnt/c/a", [effect(K.DELETE, "c:\\a", "wsl rm")]),  # `r` inside a long option is no -r
        ("rm -f", [effect(K.DELETE, None, "wsl rm")]),
        ("rm - /mnt/c/a", [effect(K.DELETE, "-", "wsl rm"), effect(K.DELETE, "c:\\a", "wsl rm")]),
        ("rmdir /mnt/c/d", [effect(K.DELETE, "c:\\d", "wsl rmdir")]),
        ("unlink /mnt/c/f", [effect(K.DELETE, "c:\\f", "wsl unlink")]),
        ("shred /mnt/c/f /mnt/c/g", [effect(K.DELETE, "c:\\f", "wsl shred"), effect(K.DELETE, "c:\\g", "wsl shred")]),
        ("shred", [effect(K.DELETE, None, "wsl shred")]),
        ("find /mnt/c/Users -delete", [effect(K.DELETE_RECURSIVE, "c:\\Users", "wsl find -delete")]),
        ("find -delete", [effect(K.DELETE_RECURSIVE, None, "wsl find -delete")]),
        ("find /mnt/c/a /mnt/c/b -delete", [effect(K.DELETE_RECURSIVE, "c:\\a", "wsl find -delete")]),
        ("find /mnt/c/a -name x", [effect(K.READ, "c:\\a", "wsl find")]),
        (
            "mv /mnt/c/a /mnt/c/b /mnt/d/t",
            [
                effect(K.MOVE, "c:\\a", "wsl mv"),
                effect(K.MOVE, "c:\\b", "wsl mv"),
                effect(K.WRITE, "d:\\t", "wsl mv"),
                effect(K.WRITE, "d:\\t\\a", "wsl mv into a folder", extra=TREE_INTO),
                effect(K.WRITE, "d:\\t\\b", "wsl mv into a folder", extra=TREE_INTO),
            ],
        ),
        (
            "cp /mnt/c/a /mnt/d/t",
            [
                effect(K.READ, "c:\\a", "wsl cp"),
                effect(K.WRITE, "d:\\t", "wsl cp"),
                effect(K.WRITE, "d:\\t\\a", "wsl cp into a folder", extra=INTO),  # S-RULE-147
            ],
        ),
        (
            "cp -R /mnt/c/a /mnt/d/t",  # a folder copied whole: the write reaches below it
            [
                effect(K.READ, "c:\\a", "wsl cp"),
                effect(K.WRITE, "d:\\t", "wsl cp"),
                effect(K.WRITE, "d:\\t\\a", "wsl cp into a folder", extra=TREE_INTO),
            ],
        ),
        (
            "cp --archive /mnt/c/a /mnt/d/t",
            [
                effect(K.READ, "c:\\a", "wsl cp"),
                effect(K.WRITE, "d:\\t", "wsl cp"),
                effect(K.WRITE, "d:\\t\\a", "wsl cp into a folder", extra=TREE_INTO),
            ],
        ),
        (
            "cp -t /mnt/d/t /mnt/c/a /mnt/c/b",  # the target folder first
            [
                effect(K.READ, "c:\\a", "wsl cp"),
                effect(K.READ, "c:\\b", "wsl cp"),
                effect(K.WRITE, "d:\\t", "wsl cp"),
                effect(K.WRITE, "d:\\t\\a", "wsl cp into a folder", extra=INTO),
                effect(K.WRITE, "d:\\t\\b", "wsl cp into a folder", extra=INTO),
            ],
        ),
        (
            "cp --target-directory=/mnt/d/t /mnt/c/a /mnt/c/b",
            [
                effect(K.READ, "c:\\a", "wsl cp"),
                effect(K.READ, "c:\\b", "wsl cp"),
                effect(K.WRITE, "d:\\t", "wsl cp"),
                effect(K.WRITE, "d:\\t\\a", "wsl cp into a folder", extra=INTO),
                effect(K.WRITE, "d:\\t\\b", "wsl cp into a folder", extra=INTO),
            ],
        ),
        ("mv /mnt/c/a", [effect(K.READ, "c:\\a", "wsl mv")]),  # one operand: no move
        ("chmod 777 /mnt/c/a /mnt/c/b", [effect(K.WRITE, "c:\\a", "wsl chmod"), effect(K.WRITE, "c:\\b", "wsl chmod")]),
        ("chown root /mnt/c/a", [effect(K.WRITE, "c:\\a", "wsl chown")]),
        ("chmod /mnt/c/a", [effect(K.READ, "c:\\a", "wsl chmod")]),  # only the mode: nothing changed
        ("touch /mnt/c/a b", [effect(K.WRITE, "c:\\a", "wsl touch"), effect(K.WRITE, "b", "wsl touch")]),
        (
            "cat /mnt/c/a b ~/c",
            [effect(K.READ, "c:\\a", "wsl cat"), effect(K.READ, "\\\\wsl.localhost\\linux\\home\\user\\c", "wsl cat")],
        ),
    ],
)
def test_each_linux_file_command_gives_its_effects(line: str, expected: list[Effect]) -> None:
    """S-RULE-18: rm (-r), rmdir, unlink, shred, find -delete, mv, cp, chmod, chown, touch; others read paths."""
    assert _wsl(line) == tuple(expected)


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("rm /mnt/c/dir", [effect(K.DELETE, "c:\\dir", "wsl rm")]),  # an `r` in a path is no -r flag
        ("tee /mnt/c/log", [effect(K.WRITE, "c:\\log", "wsl tee")]),
        ("truncate /mnt/c/log", [effect(K.WRITE, "c:\\log", "wsl truncate")]),
        ("cat 'a\\b'", [effect(K.READ, "a\\b", "wsl cat")]),  # a (quoted) backslash is a separator too
        ("cat /mnt/c/a\\b", [effect(K.READ, "c:\\ab", "wsl cat")]),  # bash drops a backslash escaping a letter
        ("cat ~", [effect(K.READ, "\\\\wsl.localhost\\linux\\home\\user", "wsl cat")]),
        ("cat notes", []),  # a bare word may be anything: not read as a path
        ("sudo; rm /mnt/c/a", [effect(K.DELETE, "c:\\a", "wsl rm")]),  # an empty command does not end the line
        ("rm /mnt/c/a; rm /mnt/c/b", [effect(K.DELETE, "c:\\a", "wsl rm"), effect(K.DELETE, "c:\\b", "wsl rm")]),
        (
            "rm /mnt/c/a && bash -c 'rm /mnt/c/b'",
            [effect(K.DELETE, "c:\\a", "wsl rm"), effect(K.DELETE, "c:\\b", "wsl rm")],
        ),
        ("cd /mnt/c; echo /mnt/c/x", []),  # builtins that touch no file
        ("/bin/rm /mnt/c/a", [effect(K.DELETE, "c:\\a", "wsl rm")]),  # the command named by its path
    ],
)
def test_every_command_of_the_line_is_read(line: str, expected: list[Effect]) -> None:
    """S-RULE-18: a line splits at `;`, `&&`, `|`…; nested shells are read; only paths are read by unknown commands."""
    assert _wsl(line) == tuple(expected)


NESTED = ("-c", "bash -c 'rm /mnt/c/a'")


@requirement("S-RULE-18")
def test_nested_shells_are_read_down_to_the_depth_bound() -> None:
    """S-RULE-18: `bash -c "bash -c …"` is read until MAX_LINUX_DEPTH (4) levels; deeper is not."""
    found = (effect(K.DELETE, "c:\\a", "wsl rm"),)
    assert linux_effects("bash", NESTED) == found
    assert linux_effects("bash", NESTED, 2) == found
    assert linux_effects("bash", NESTED, 3) == ()
    assert linux_effects("bash", ("-c", "rm /mnt/c/a"), 3) == found
    assert linux_effects("bash", ("-c", "rm /mnt/c/a"), 4) == ()


@requirement("S-RULE-18")
@pytest.mark.parametrize(
    ("name", "words", "expected"),
    [
        ("wsl", ("-d", "Ubuntu", "rm", "/mnt/c/a"), [effect(K.DELETE, "c:\\a", "wsl rm")]),
        ("wsl", ("--exec", "rm", "/mnt/c/a"), [effect(K.DELETE, "c:\\a", "wsl rm")]),
        ("wsl", ("--EXEC", "rm", "/mnt/c/a"), [effect(K.DELETE, "c:\\a", "wsl rm")]),
        ("wsl", ("--", "rm", "/mnt/c/a"), [effect(K.DELETE, "c:\\a", "wsl rm")]),
        ("wsl", ("--unregister", "Ubuntu"), []),  # wsl's own management
        ("wsl", ("--export", "Ubuntu", "/mnt/c/x.tar"), []),
        ("wslhost", ("rm", "/mnt/c/a"), [effect(K.DELETE, "c:\\a", "wsl rm")]),
        ("wsl", ("rm", "/mnt/c/a b"), [effect(K.DELETE, "c:\\a b", "wsl rm")]),  # a word with a blank stays one
        ("bash", ("--norc", "-c", "rm /mnt/c/a"), [effect(K.DELETE, "c:\\a", "wsl rm")]),
        ("bash", ("-c",), []),
        ("bash", ("script.sh",), []),  # a script run by file is not read
    ],
)
def test_wsl_options_and_shell_flags_lead_to_the_command_they_run(
    name: str, words: tuple[Value, ...], expected: list[Effect]
) -> None:
    """S-RULE-18: wsl's own options (`-d x`, `--exec`, `--`) are skipped, others manage wsl; `sh -c` runs its text."""
    assert linux_effects(name, words) == tuple(expected)
