"""The ``kifu`` commands, one module per group; ``tools.cli`` assembles them."""
