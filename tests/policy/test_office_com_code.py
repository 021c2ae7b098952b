"""Code run through Office's COM objects and the Script Control (S-RULE-163).

Every refusal below passed before: Excel 4.0's `EXEC` runs a command line, an Office application's `Run`
runs a document's macro, and the Script Control runs VBScript handed to it as text.
"""

from __future__ import annotations

import pytest

from tests._requirements import requirement
from tests.policy.verdicts import ps

ASK = ("dynamic-command", "ask")
_EXCEL = "$x = New-Object -ComObject Excel.Application; "


@requirement("S-RULE-163")
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (_EXCEL + "$x.ExecuteExcel4Macro('EXEC(\"cmd /c rd /s /q C:\\Users\")')", ("protected-place-delete", "deny")),
        (_EXCEL + "$x.ExecuteExcel4Macro('=EXEC(\"cmd /c net user x P@ss /add\", 0)')", ("account-change", "deny")),
        (_EXCEL + "$x.ExecuteExcel4Macro('EXEC(\"notepad.exe\")')", None),  # read through: harmless
        (_EXCEL + "$x.ExecuteExcel4Macro('CALL(\"Kernel32\",\"WinExec\",\"JCJ\",\"calc\",0)')", ASK),
        (_EXCEL + "$x.ExecuteExcel4Macro($m)", ASK),
        (_EXCEL + "$w = $x.Workbooks.Open('C:\\t\\m.xlsm'); $x.Run('Evil')", ASK),
        ("$w = New-Object -ComObject Word.Application; $d = $w.Documents.Open('C:\\t\\m.docm'); $w.Run('AutoOpen')",
         ASK),
        ("$p = New-Object -ComObject PowerPoint.Application; $p.Run('m.pptm!Go')", ASK),
        (_EXCEL + "$x.RegisterXLL('C:\\t\\x.xll')", ASK),
        ("$v = New-Object -ComObject MSScriptControl.ScriptControl; $v.Language = 'VBScript'; "
         "$v.ExecuteStatement('CreateObject(\"WScript.Shell\").Run \"calc\"')", ASK),
        ("$v = New-Object -ComObject MSScriptControl.ScriptControl; $v.Language = 'JScript'; $v.Eval('1+1')", ASK),
        # its other ProgIDs, and JScript .NET's evaluator
        ("$v = New-Object -ComObject ScriptControl; $v.Language = 'VBScript'; $v.ExecuteStatement('x')", ASK),
        ("$v = New-Object -ComObject MSScriptControl.ScriptControl.1; $v.AddCode('Sub X: End Sub')", ASK),
        ("Add-Type -AssemblyName Microsoft.JScript; "
         "[Microsoft.JScript.Eval]::JScriptEvaluate('1', [Microsoft.JScript.Vsa.VsaEngine]::CreateEngine())", ASK),
        # ordinary
        (_EXCEL + "$x.Workbooks.Open('C:\\t\\report.xlsx'); $x.Visible = $true", None),
        ("$w = New-Object -ComObject Word.Application; $d = $w.Documents.Open('C:\\t\\a.docx'); "
         "$d.SaveAs('C:\\t\\a.pdf', 17)", None),
    ],
)  # fmt: skip
def test_office_and_script_control_code_is_judged(command: str, expected: object) -> None:
    """S-RULE-163: EXEC's command line judged, other macros and script code asked."""
    assert ps(command) == expected
