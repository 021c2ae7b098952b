Feature: Nothing the agent can reach lifts the guard
  The gateway's state dir, STOP file, audit, config (at its default path whether or not a file is
  there), its WINMCP_GATEWAY_* settings and the PowerShell profiles are off limits to the agent.
  The gateway resolves its own paths at start-up (absolute, real, 8.3) and the rules compare
  canonical forms, so a custom state dir name is found by place, never by the word in the text.

  Background:
    Given the gateway on Windows with its state dir "guard" in "C:\Users\me\AppData\Local"

  @S-SELF-01
  Scenario: The default config file is protected before it exists
    When FileSystem writes "C:\Users\me\AppData\Roaming\winmcp-gateway\config.toml"
    Then the call is refused as self-protection

  @S-SELF-01
  Scenario: A junction in place of the default config folder is refused
    When PowerShell runs "New-Item -ItemType Junction -Path $env:APPDATA\winmcp-gateway -Target C:\Users\me\Desktop\cfg"
    Then the call is refused as self-protection

  @S-SELF-02
  Scenario Outline: Every WINMCP_GATEWAY_ setting is off limits
    When PowerShell runs "<command>"
    Then the call is refused as self-protection

    Examples:
      | command                                                                                      |
      | setx WINMCP_GATEWAY_ENFORCE false                                                            |
      | [Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_ENFORCE', 'false', 'User')             |
      | [Environment]::SetEnvironmentVariable('WINMCP_GATEWAY_REQUIRE_OBSERVATION', '0', 'Machine')  |
      | Add-Content C:\Temp\setup.ps1 '$env:WINMCP_GATEWAY_ENFORCE = 0'                              |
      | reg add HKCU\Environment /v WINMCP_GATEWAY_ENFORCE /d false /f                               |

  @S-SELF-02
  Scenario Outline: The Registry tool cannot set the gateway's variables
    When the Registry tool sets "<name>" in "<key>"
    Then the call is refused as self-protection

    Examples:
      | key                                                                    | name                     |
      | HKCU:\Environment                                                      | WINMCP_GATEWAY_ENFORCE   |
      | HKLM:\SYSTEM\CurrentControlSet\Control\Session Manager\Environment     | WINMCP_GATEWAY_PROFILE   |

  @S-SELF-03
  Scenario Outline: A PowerShell profile cannot be changed, only read
    When PowerShell runs "<command>"
    Then the call is <outcome>

    Examples:
      | command                                                         | outcome                     |
      | Add-Content $PROFILE '$env:WINMCP_GATEWAY_ENFORCE = 0'          | refused as self-protection  |
      | 'Set-Alias ls Remove-Item' >> $PROFILE                          | refused as self-protection  |
      | Set-Content $PROFILE.CurrentUserAllHosts 'x'                    | refused as self-protection  |
      | Get-Content $PROFILE                                            | not a self-protection hit   |

  @S-SELF-04
  Scenario: Start-up resolves a relative state dir to its absolute, real and 8.3 forms
    Given the gateway on Windows with its state dir "guard+state" in "C:\Users\me\AppData\Local"
    And Windows names "C:\Users\me\AppData\Local\guard+state" "C:\Users\me\AppData\Local\GUARD_~1"
    Then the protected paths include "C:\Users\me\AppData\Local\guard+state" and "C:\Users\me\AppData\Local\GUARD_~1"
    And no protected path is relative
    When FileSystem deletes "C:\Users\me\AppData\Local\GUARD_~1\STOP"
    Then the call is refused as self-protection

  @S-SELF-05
  Scenario Outline: FileSystem cannot reach the state dir by another spelling
    When FileSystem deletes "<path>"
    Then the call is refused as self-protection

    Examples:
      | path                                                        |
      | C:\Users\me\APPDAT~1\Local\guard\STOP                       |
      | C:\Users\me\AppData\Local\guard.\STOP                       |
      | \\\\localhost\c$\Users\me\AppData\Local\guard\STOP            |
      | \\\\127.0.0.1\c$\Users\me\AppData\Local\guard\STOP            |
      | \\\\?\UNC\localhost\c$\Users\me\AppData\Local\guard\STOP      |
      | \Users\me\AppData\Local\guard\STOP                          |
      | C:Users\me\AppData\Local\guard\STOP                         |
      | C:\Users\me\AppData\Local\gu?rd\ST*                         |

  @S-SELF-06
  Scenario Outline: PowerShell finds the custom state dir by place, not by its name
    When PowerShell runs "<command>"
    Then the call is <outcome>

    Examples:
      | command                                                                                  | outcome                    |
      | cd $env:LOCALAPPDATA; rm guard\STOP                                                      | refused as self-protection |
      | Remove-Item (Join-Path $env:LOCALAPPDATA 'guard\STOP')                                   | refused as self-protection |
      | Remove-Item ([Environment]::GetFolderPath('LocalApplicationData') + '\guard\STOP')       | refused as self-protection |
      | Remove-Item \\\\localhost\c$\Users\me\AppData\Local\guard\STOP                             | refused as self-protection |
      | Write-Output 'guard'                                                                     | not a self-protection hit  |
      | Remove-Item $env:LOCALAPPDATA\Temp\guard\cache.tmp                                       | not a self-protection hit  |

  @S-SELF-07
  Scenario Outline: A link to a protected path is refused
    When PowerShell runs "<command>"
    Then the call is refused as self-protection

    Examples:
      | command                                                                              |
      | cmd /c mklink /J C:\Users\me\Desktop\x C:\Users\me\AppData\Local                     |
      | New-Item -ItemType Junction -Path C:\Users\me\Desktop\x -Target $env:LOCALAPPDATA\guard |
      | New-Item -ItemType SymbolicLink -Path C:\Users\me\Desktop\x -Value C:\Users\me\AppData |
      | subst X: C:\Users\me\AppData\Local                                                   |

  @S-SELF-08
  Scenario Outline: Reading the gateway's audit and config through FileSystem stays refused
    When FileSystem reads "<path>"
    Then the call is refused as self-protection

    Examples:
      | path                                                      |
      | C:\Users\me\AppData\Local\guard\audit.jsonl               |
      | C:\Users\me\AppData\Roaming\winmcp-gateway\config.toml    |

  @S-SELF-09
  Scenario: Through the gateway, no spelling reaches the simulated system
    Given a gateway in front of the simulator with its state dir at the custom name "guard"
    When the agent tries every spelling of the config, settings, profiles, paths and links
    Then every one is answered DENIED SELF_PROTECTION
    And the simulator's event log is empty

  @S-SELF-10
  Scenario: A kill that would end the gateway itself is refused
    Given the command rules as the gateway loads them
    When the agent kills the gateway's own pid, or every process named like the interpreter it runs in
    Then each kill is denied as self-protection
    And killing another process by its own name is judged as before
