"""A container handed a folder of this machine (S-RULE-217).

Before, `docker run --rm -v C:\\Windows:/w alpine rm -rf /w/System32` passed: the path rules saw `/w/System32`, never
`C:\\Windows\\System32`, while the bind mount writes through to it. So did mounting `~\\.ssh` and reading the key
inside the container, and `sh -c "rm -rf /host/Users"` on `-v C:\\:/host`.
"""

from __future__ import annotations

import pytest

from policy.rules.effects_containers import container_mounts
from policy.rules.shell.ops import EffectKind, Operation
from tests._requirements import requirement
from tests.policy.test_typed import typed_in_console
from tests.policy.verdicts import guarded, ps

PROTECTED_DELETE = ("protected-place-delete", "deny")


@requirement("S-RULE-217")
@pytest.mark.parametrize(
    "command",
    [
        "docker run --rm -v C:\\Windows:/w alpine rm -rf /w/System32",
        "docker run --rm -v C:/Windows:/w alpine rm -rf /w/System32",  # either slash
        "docker run --rm --volume=C:\\Windows:/w alpine rm -rf /w/System32",
        "docker run --rm --mount type=bind,source=C:\\Windows,target=/w alpine rm -rf /w/System32",
        "docker run --rm --mount type=bind,src=C:\\Windows,dst=/w alpine rm -rf /w/System32",
        "docker --context default run --rm -v C:\\Windows:/w alpine rm -rf /w/System32",  # a global option first
        "docker container run --rm -v C:\\Windows:/w alpine rm -rf /w/System32",
        "docker create -v C:\\Windows:/w alpine rm -rf /w/System32",  # made now, started later
        "docker run --rm -v C:\\Windows:/w --entrypoint rm alpine -rf /w/System32",  # the entrypoint given
        'docker run --rm -v C:\\Windows:/w alpine sh -c "rm -rf /w/System32"',  # a shell's command line
        "docker run --rm -it -e X=1 -w /w -v C:\\Windows:/w alpine rm -rf /w/System32",  # valued options skipped
        "podman run --rm -v C:\\Windows:/w alpine rm -rf /w",
        "nerdctl run --rm -v C:\\Windows:/w alpine rm -rf /w/System32",
        "& 'C:\\Program Files\\Docker\\Docker\\resources\\bin\\docker.exe' run -v C:\\Windows:/w alpine rm -rf /w",
        "cmd /c docker run --rm -v C:\\Windows:/w alpine rm -rf /w/System32",
    ],
)
def test_a_delete_inside_the_container_is_the_delete_of_the_host_folder(command: str) -> None:
    """S-RULE-217: the mount writes through; `/w/System32` is `C:\\Windows\\System32`."""
    assert ps(command) == PROTECTED_DELETE


@requirement("S-RULE-217")
@pytest.mark.parametrize(
    "command",
    [
        "docker run --rm -v C:\\Users\\me\\.ssh:/k:ro alpine cat /k/id_rsa",
        "docker run --rm -v C:\\Users\\me\\.ssh:/root/.ssh alpine/git clone git@example.com:x/y",
        'docker run --rm -v "$env:USERPROFILE\\.aws:/root/.aws" amazon/aws-cli s3 ls',
    ],
)
def test_a_credential_store_handed_to_a_container_is_refused(command: str) -> None:
    """S-RULE-217: mounted, read-only or not, its keys are read by whatever the image runs."""
    assert ps(command) == ("credential-access", "deny")


@requirement("S-RULE-217")
def test_typed_into_a_console_is_refused() -> None:
    """S-RULE-217: the keyboard is a shell."""
    assert typed_in_console("docker run --rm -v C:\\Windows:/w alpine rm -rf /w/System32") == PROTECTED_DELETE


@requirement("S-RULE-217")
def test_the_gateways_own_files_handed_to_a_container_are_refused() -> None:
    """S-RULE-217: a profile folder holding the gateway's state, mounted writable, is the guard handed over."""
    found = guarded("PowerShell", command="docker run --rm -v C:\\Users\\bob\\AppData:/a alpine rm -rf /a/Local")
    assert found == ("self-protection", "deny")


@requirement("S-RULE-217")
def test_the_effects_name_the_folder_and_whether_it_is_writable() -> None:
    """S-RULE-217: read always, written unless `:ro`; a named volume is no folder of this machine."""
    op = Operation(shell="program", name="docker", args=("run", "-v", "C:\\data:/d:ro", "-v", "vol:/v", "img"))
    kinds = [(e.kind, e.target) for e in container_mounts(op)]
    assert kinds == [(EffectKind.READ, "C:\\data")]
    op = Operation(shell="program", name="docker", args=("run", "-v", "C:\\data:/d", "img"))
    assert [(e.kind, e.target) for e in container_mounts(op)] == [
        (EffectKind.READ, "C:\\data"),
        (EffectKind.WRITE, "C:\\data"),
    ]


@requirement("S-RULE-217")
@pytest.mark.parametrize(
    "command",
    [
        "docker run --rm -v ${PWD}:/src -w /src node:20 npm test",
        "docker run --rm -v C:\\work\\app:/src node:20 npm test",
        "docker run --rm -v C:\\work\\app:/src alpine rm /src/build.log",  # one file of the project
        "docker run -d -p 5432:5432 -v pgdata:/var/lib/postgresql/data postgres:16",  # a named volume
        "docker run --rm alpine rm -rf /var/cache",  # the container's own files
        "docker exec c1 rm -rf /tmp/x",  # mounts of a container started earlier are not in the call
        "docker ps -a",
        "docker images",
    ],
)
def test_ordinary_container_work_stays_ordinary(command: str) -> None:
    """S-RULE-217: a project folder, a named volume and the container's own files are no protected place."""
    assert ps(command) is None
