"""Deleting data that lives outside this machine's files (issue 18, S-RULE-177).

The agent runs with the person's sign-ins: their cloud CLIs (`aws`, `az`, `gcloud`, `gsutil`), their
infrastructure tools (`terraform`, `tofu`, `pulumi`, `kubectl`, `oc`, `helm`), their repository host (`gh`,
`git push --delete`), their database clients (`sqlcmd`, `psql`, `mysql`, `mongosh`, `redis-cli`) and their
container engine's volumes (`docker`, `podman`). One command there deletes a production database, a bucket of
backups, a cluster's namespace or a repository's branches, and no file rule sees it: the data is not on this
disk, and nothing here can bring it back. Such a command is an `EXTERNAL_DELETE` (judge row
`external-delete`, ask): it may well be what the person wants, so a person decides.

Read by the verb, not the resource: `aws <service> delete-*|terminate-*|remove-*|deregister-*|purge-*`, `aws s3
rb|rm`, `aws s3 sync --delete`; an `az`/`gcloud` command path holding `delete`, `purge` or `delete-batch`;
`terraform destroy` and `apply -destroy`; `kubectl delete`; `helm uninstall`; `gh <thing> delete` and `gh api
-X DELETE`; a `git push` that deletes a remote's branches (`--delete`, `-d`, a `:branch` refspec, `--mirror`,
`--prune`; a forced push passes, S-RULE-83); `npm unpublish`; a SQL `DROP` or `TRUNCATE`;
`FLUSHALL`; a volume removed or pruned. PowerShell's cloud modules are read by their noun's prefix:
`Remove-Az*`, `Remove-AzureAD*`, `Remove-Mg*` (Microsoft Graph), AWS Tools' `Remove-S3*`, `Remove-EC2*`, …
What is not read: a command file's content (`terraform destroy` in a script, `kubectl delete -f` of a manifest
is read, its resources are not), an API called by URL with another tool (`curl -X DELETE`), a change that is
not a deletion (scaling to zero, a security group opened).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence

from policy.rules.effects_common import Effects, argv_of, effect, lower, program_stem
from policy.rules.effects_git import own_options
from policy.rules.shell.ops import EffectKind, Operation, Value
from policy.rules.shell.sql import read_sqlcmd

K = EffectKind
Words = Sequence[Value]
Reader = Callable[[Words], str | None]  # a tool's words → the deleting command it names, or None

# Options of each tool that take the next word, where they may come before its command path (lower case).
_KUBECTL = frozenset(
    {"-n", "--namespace", "--context", "--kubeconfig", "--cluster", "--user", "-s", "--server", "--token"}
)
_DOCKER = frozenset({"-h", "--host", "--context", "-c", "--config", "--log-level", "-l"})
# …and compose's, before `down` (`docker compose -f x.yml down -v`, `docker-compose -p app down -v`).
_DOCKER |= {"-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory"}
_VALUED: Mapping[str, frozenset[str]] = {
    "aws": frozenset({"--profile", "--region", "--output", "--endpoint-url", "--ca-bundle", "--query", "--color"}),
    "kubectl": _KUBECTL,
    "oc": _KUBECTL,
    "helm": frozenset({"-n", "--namespace", "--kube-context", "--kubeconfig"}),
    "gh": frozenset({"-r", "--repo", "-x", "--method", "-f", "--field", "--raw-field", "-h", "--header", "-q", "--jq"}),
    "az": frozenset({"--subscription", "--output", "-o", "--query"}),
    "gcloud": frozenset({"--project", "--account", "--configuration", "--format"}),
    "docker": _DOCKER,
    "podman": _DOCKER,
}


def _path(tool: str, words: Words, *, leading: bool = False) -> list[str]:
    """The words that are not options (lower case), skipping the value of an option `_VALUED` names.

    `leading`: only those before the first other option (`az vm show -n delete` names a VM `delete`).
    """
    valued = _VALUED.get(tool, frozenset())
    out: list[str] = []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        text = lower(word)
        if text.startswith("-"):
            skip = text in valued
            if leading and not skip:
                break
            continue
        out.append(text)
    return out


def _flags(words: Words) -> set[str]:
    """The options' names: lower case, without their dashes (`--force`, and PowerShell's binding of it) or `=value`."""
    return {lower(w).lstrip("-").split("=", 1)[0] for w in words if lower(w).startswith("-")}


_AWS_VERBS = ("delete-", "terminate-", "remove-", "deregister-", "purge-")


def _aws(words: Words) -> str | None:
    path = _path("aws", words)
    if len(path) < 2:
        return None
    service, verb = path[0], path[1]
    if verb.startswith(_AWS_VERBS) or (service == "s3" and verb in ("rb", "rm")):
        return f"aws {service} {verb}"
    if service == "s3" and verb == "sync" and "delete" in _flags(words):
        return "aws s3 sync --delete"
    return None


_DELETE_VERBS = frozenset({"delete", "purge", "delete-batch", "rm", "destroy"})


def _cloud_path(tool: str) -> Reader:
    """`az group delete`, `gcloud projects delete`: a deleting verb among the command path's first words (az's
    and gcloud's arguments are options, so the leading words are the path; a positional name comes after)."""

    def reader(words: Words) -> str | None:
        path = _path(tool, words, leading=True)[:5]
        verb = next((w for w in path if w in _DELETE_VERBS), None)
        return None if verb is None else " ".join([tool, *path[: path.index(verb) + 1]])

    return reader


def _first_verb(tool: str, verbs: frozenset[str], also: Callable[[list[str], set[str]], bool] | None = None) -> Reader:
    """A tool whose first command word says it deletes (`kubectl delete`, `helm uninstall`, `gsutil rm`)."""

    def reader(words: Words) -> str | None:
        path = _path(tool, words)
        if path and path[0] in verbs:
            return f"{tool} {path[0]}"
        if also is not None and path and also(path, _flags(words)):
            return f"{tool} {' '.join(path[:2])}"
        return None

    return reader


def _terraform_apply_destroy(path: list[str], flags: set[str]) -> bool:
    return path[0] == "apply" and "destroy" in flags


def _pulumi_stack_rm(path: list[str], flags: set[str]) -> bool:
    return path[:2] == ["stack", "rm"]


def _gh(words: Words) -> str | None:
    path = _path("gh", words)
    if len(path) >= 2 and path[1] == "delete":
        return f"gh {path[0]} delete"
    if path[:1] == ["api"]:
        method = _option_value(words, ("-X", "--method"))
        if method is not None and method.upper() == "DELETE":
            return "gh api -X DELETE"
    return None


def _option_value(words: Words, names: tuple[str, ...]) -> str | None:
    """The value of the first option among `names` (`-X DELETE`, `--method=DELETE`, `-XDELETE`).

    A short option is matched as written (`mysql -E` is not `-e`), a long one in any case.
    """
    for i, word in enumerate(words):
        for name in names:
            text = lower(word) if name.startswith("--") else word or ""
            if text == name:
                following = words[i + 1] if i + 1 < len(words) else None
                return following.strip() if following is not None else None
            if text.startswith(name + "="):
                return (word or "").split("=", 1)[1].strip()
            if len(name) == 2 and text.startswith(name) and len(text) > 2:
                return (word or "")[2:].strip()
    return None


# `git push` options that delete a remote's branches: `--mirror` and `--prune` those this repository lacks, whose
# commits it may never have fetched. A forced push passes (S-RULE-83: what it replaces stays in this reflog).
_PUSH_DELETES = frozenset({"mirror", "delete", "d", "prune"})


def _git(words: Words) -> str | None:
    _, rest = own_options(words)
    if not rest or lower(rest[0]) != "push":
        return None
    pushed = rest[1:]
    flags = _flags(pushed)
    found = sorted(flags & _PUSH_DELETES)
    if found:
        return f"git push --{found[0]}" if len(found[0]) > 1 else f"git push -{found[0]}"
    positional = [lower(w) for w in pushed if not lower(w).startswith("-")]
    if any(ref.startswith(":") for ref in positional[1:]):
        return "git push :branch (a delete)"
    return None


def _npm(words: Words) -> str | None:
    path = _path("npm", words)
    return "npm unpublish" if path[:1] == ["unpublish"] else None


# A SQL statement that drops or empties what a database holds.
_SQL_DESTROYS = re.compile(
    r"\b(?:drop\s+(?:database|schema|table|login|user|collection)|truncate\s+table|truncate\s+\w)|\bdropDatabase\s*\(",
    re.IGNORECASE,
)
_REDIS_FLUSH = frozenset({"flushall", "flushdb"})


def _query(text: Value, tool: str) -> str | None:
    match = _SQL_DESTROYS.search(text or "")
    return None if match is None else f"{tool} {' '.join(match.group(0).split()).lower()}"


def _sqlcmd(words: Words) -> str | None:
    query, _, _ = read_sqlcmd(words)
    return _query(query, "sqlcmd")


def _query_option(tool: str, names: tuple[str, ...]) -> Reader:
    def reader(words: Words) -> str | None:
        return _query(_option_value(words, names), tool)

    return reader


def _sqlite(words: Words) -> str | None:
    """`sqlite3 app.db "DROP TABLE users"`, `-cmd "…"`: every statement is one of its words after the file."""
    return _query(" ".join(w for w in words if w), "sqlite3")


def _redis(words: Words) -> str | None:
    found = next((w for w in map(lower, words) if w in _REDIS_FLUSH), None)
    return None if found is None else f"redis-cli {found}"


def _docker(tool: str) -> Reader:
    """Volumes removed (`volume rm|prune`, `rm -v`, `system prune --volumes`, `compose down -v`)."""

    def reader(words: Words) -> str | None:
        path = _path(tool, words)
        flags = _flags(words)
        if path[:1] == ["volume"] and len(path) > 1 and path[1] in ("rm", "remove", "prune"):
            return f"{tool} volume {path[1]}"
        if path[:1] == ["rm"] and flags & {"v", "volumes"}:
            return f"{tool} rm --volumes"
        if path[:2] == ["system", "prune"] and "volumes" in flags:
            return f"{tool} system prune --volumes"
        if path[:2] == ["compose", "down"] and flags & {"v", "volumes"}:
            return f"{tool} compose down --volumes"
        return None

    return reader


def _compose(words: Words) -> str | None:
    path = _path("docker", words)
    return "docker-compose down --volumes" if path[:1] == ["down"] and _flags(words) & {"v", "volumes"} else None


_PROGRAMS: Mapping[str, Reader] = {
    "aws": _aws,
    "az": _cloud_path("az"),
    "gcloud": _cloud_path("gcloud"),
    "gsutil": _first_verb("gsutil", frozenset({"rm", "rb"})),
    "terraform": _first_verb("terraform", frozenset({"destroy"}), _terraform_apply_destroy),
    "tofu": _first_verb("tofu", frozenset({"destroy"}), _terraform_apply_destroy),
    "terragrunt": _first_verb("terragrunt", frozenset({"destroy"}), _terraform_apply_destroy),
    "pulumi": _first_verb("pulumi", frozenset({"destroy"}), _pulumi_stack_rm),
    "kubectl": _first_verb("kubectl", frozenset({"delete"})),
    "oc": _first_verb("oc", frozenset({"delete"})),
    "helm": _first_verb("helm", frozenset({"uninstall", "delete", "del", "un"})),
    "gh": _gh,
    "git": _git,
    "npm": _npm,
    "sqlcmd": _sqlcmd,
    "osql": _sqlcmd,
    "psql": _query_option("psql", ("-c", "--command")),
    "mysql": _query_option("mysql", ("-e", "--execute")),
    "mariadb": _query_option("mariadb", ("-e", "--execute")),
    "mongosh": _query_option("mongosh", ("--eval",)),
    "mongo": _query_option("mongo", ("--eval",)),
    "redis-cli": _redis,
    "sqlite3": _sqlite,
    "sqlite": _sqlite,
    "docker": _docker("docker"),
    "podman": _docker("podman"),
    "docker-compose": _compose,
}

# PowerShell's cloud modules: `Remove-` and the noun's prefix (Az, AzureAD, Graph's Mg, AWS Tools' service
# prefixes, Google's, SharePoint's, Exchange's mailboxes and Teams). A sign-in context removed is not data.
_CLOUD_CMDLET = re.compile(
    r"^remove-(?:az|azurerm|azuread|azurestorage|mg|s3|ec2|rds|iam|lm|ddb|cfn|eks|ecs|ecr|sqs|sns|kms|efs|r53|cwl"
    r"|gcs|gce|gcsql|pnp|spo|team|mailbox|distributiongroup|unifiedgroup)",
)
_NOT_DATA = re.compile(r"^remove-(?:azcontext|azaccount|azenvironment|mgcontext)$")


def _cmdlet(op: Operation) -> str | None:
    name = lower(op.name)
    if _CLOUD_CMDLET.match(name) and not _NOT_DATA.match(name):
        return op.name
    if name == "invoke-sqlcmd":  # the query: `-Query` by any accepted abbreviation, else the first positional
        query = next((v for k, v in op.params if k and "query".startswith(lower(k))), None)
        return _query(query if query is not None else next(iter(op.args), None), "Invoke-Sqlcmd")
    return None


def _words(op: Operation) -> tuple[Value, ...]:
    """A program's words; a cmdlet-like name's (`docker-compose down -v`) with its parameters spelled `-name`."""
    if op.shell != "powershell":
        return argv_of(op).words
    named = (f"-{k}" if v == "true" else f"-{k}={v}" for k, v in op.params)
    return (*op.args, *named)


def external_deletes(op: Operation) -> Effects:
    """An `EXTERNAL_DELETE` for a command that deletes data outside this machine's files (module docstring).

    Args:
        op: any operation; programs and PowerShell's names (a cmdlet-like `docker-compose` too) are read.

    Returns:
        One effect whose detail names the command and verb (its target: None, the data is not a path), or `()`.
    """
    if op.shell not in ("program", "powershell"):  # (cmd's own operations are its built-ins: none deletes elsewhere)
        return ()
    reader = _PROGRAMS.get(program_stem(op.name))
    found = reader(_words(op)) if reader is not None else None
    if found is None and op.shell == "powershell":
        found = _cmdlet(op)
    return () if found is None else (effect(K.EXTERNAL_DELETE, None, found),)
