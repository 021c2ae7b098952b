"""What a command line *does*: shell analysers (PowerShell, cmd.exe) that resolve commands into operations."""
