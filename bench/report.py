"""The table: each figure beside its baseline and its target, from the same run; and its JSON and Markdown."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Row:
    measure: str
    kifu: float
    unit: str
    baseline: float | None = None
    baseline_name: str = ""
    ratio: float | None = None  # how kifu compares with the baseline, in the row's own sense
    ratio_unit: str = "x"
    target: str = ""
    met: bool | None = None  # None: no target on this row


def fmt(value: float | None, unit: str = "") -> str:
    if value is None:
        return "—"
    if unit == "%":
        return f"{value:.0f} %"
    if unit == "x":
        return f"{value:.1f}x"
    if abs(value) >= 1000:
        text = f"{value:,.0f}"
    elif abs(value) >= 100:
        text = f"{value:.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return f"{text} {unit}".strip()


def cells(row: Row) -> list[str]:
    baseline = "—" if row.baseline is None else f"{fmt(row.baseline, row.unit)} ({row.baseline_name})"
    met = "" if row.met is None else ("yes" if row.met else "NO")
    ratio = fmt(row.ratio, row.ratio_unit)
    return [row.measure, fmt(row.kifu, row.unit), baseline, ratio, row.target or "—", met]


HEADER = ["measure", "kifu", "baseline", "ratio", "target", "met?"]


def text_table(rows: list[Row]) -> str:
    table = [HEADER, *(cells(r) for r in rows)]
    widths = [max(len(line[i]) for line in table) for i in range(len(HEADER))]
    lines = []
    for i, line in enumerate(table):
        lines.append("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(rows: list[Row]) -> str:
    out = ["| " + " | ".join(HEADER) + " |", "|" + "|".join(" --- " for _ in HEADER) + "|"]
    out += ["| " + " | ".join(cells(r)) + " |" for r in rows]
    return "\n".join(out)


def write(directory: Path, rows: list[Row], meta: dict[str, Any], notes: list[str], command: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    payload = {"meta": meta, "rows": [asdict(r) for r in rows], "notes": notes}
    (directory / "latest.json").write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    missed = [n for n in notes if n.startswith("MISSED")]
    how = [n for n in notes if not n.startswith("MISSED")]
    lines = [
        "# kifu benchmarks: latest run",
        "",
        f"`{command}` on {meta['machine']} (Python {meta['python']}, SQLite {meta['sqlite']}, "
        f"msgspec {meta['msgspec']}, eventsourcing {meta['eventsourcing']}), {meta['date']}, "
        f"{meta['seconds']:.0f} s in all.",
        "",
        f"One generated game log (`tools/logs/synthetic.py`, seed {meta['seed']}): {meta['events']:,} events in "
        f"{meta['decisions']:,} decisions ({meta['events_per_decision']:.1f} events each on average). "
        "Every figure below comes from this one run.",
        "",
        markdown_table(rows),
        "",
        "## Missed targets" if missed else "## All targets met",
        "",
        *(f"- {n.removeprefix('MISSED ')}" for n in missed),
        *([""] if missed else []),
        "## How each figure was measured",
        "",
        *(f"- {n}" for n in how),
    ]
    (directory / "latest.md").write_text("\n".join(lines) + "\n")
