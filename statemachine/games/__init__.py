"""One folder per game; each reads like its rulebook and cites SPEC ids where a rule is enforced."""
