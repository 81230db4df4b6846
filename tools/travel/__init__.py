"""Time travel: a game's log read at any point, its trace, and why a trigger did or did not fire."""
