"""The effect catalogue (issue 18 item 3): what each operation DOES, to which target.

Shell analysers resolve command text into `Operation`s; this catalogue turns each into
`Effect`s (`DELETE_RECURSIVE` of `C:\\Users`, `REGISTRY_SET` of WDigest `UseLogonCredential`,
`KILL` of `lsass.exe`, `CREDENTIAL_ACCESS` by `reg save HKLM\\SAM` …), and structured tool
calls too, so one judge (`judge.py`, with the place model in `places.py`) decides every
spelling the same way. Targets are raw strings as written: canonicalising is `places.py`'s job.

- `effects_of(op)` — one operation (`effects_dispatch`; tables in `effects_files`,
  `effects_registry`, `effects_system`, `effects_security`, `effects_process`, and
  `effects_linux` for what WSL runs);
- `pipeline_effects(ops)` — a whole analysis, with what only several operations make:
  piped input, objects made earlier, download-then-run (`effects_pipeline`), values one
  operation hands another — nested calls, listed items, the current folder (`effects_values`);
- `tool_effects(tool, args)` — FileSystem, Registry, Process, App (`effects_tools`).

Read-only verbs give `READ` of their path targets and nothing else; printing
(`Write-Output`, `echo`, `Write-Host`) gives nothing. None of the three raises.
"""

from __future__ import annotations

from policy.rules.effects_dispatch import effects_of
from policy.rules.effects_pipeline import pipeline_effects
from policy.rules.effects_tools import tool_effects

__all__ = ["effects_of", "pipeline_effects", "tool_effects"]
