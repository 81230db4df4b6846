"""kifu debug: an omniscient debugger for triggers — step through a recorded game, ask where any value came from,
stop where a condition holds, and play a different decision in a what-if branch (a local web app and its API)."""
