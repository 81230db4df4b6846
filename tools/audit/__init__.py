"""The audit: a judge's report on a game's log, its checks, re-adjudication and signatures."""
