"""The self-contained HTML page of a game (`kifu view`)."""
