"""kifu's benchmarks: one command (``python -m bench``), one generated game log, every figure printed beside
its baseline and its target from the same run.

- ``bench.log``: the shared log (``tools.logs.synthetic``) and the small timing helpers;
- ``bench.append``: durable append, kifu, eventsourcing and a plain-sqlite3 commit floor taking turns;
- ``bench.ours``: kifu's SQLite store: the raw limit, rebuild, time travel, bytes per event;
- ``bench.peer``: the same game on the ``eventsourcing`` library (its SQLite module, with snapshots);
- ``bench.report``: the table, ``bench/results/latest.json`` and ``bench/results/latest.md``.
"""
