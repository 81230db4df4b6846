"""``kifu verify``: re-adjudication of one game's log under the rules it names."""

from __future__ import annotations

import json
from collections.abc import Iterator

import click

from eventsource import integrity
from eventsource.records import RawRecord
from tools import errors
from tools.audit.adjudication import readjudicate
from tools.audit.crossrules import cross_json, cross_lines, under_version
from tools.audit.verdict import verify_json, verify_lines
from tools.commands.options import game_option
from tools.errors import note_damage
from tools.logging import get_logger
from tools.logs.sources import LogSource, open_log
from tools.progress import Counter, bar, on_terminal, wanted
from tools.travel.loaded import LoadedLog, load_log
from tools.travel.streamed import StreamedLog

log = get_logger("kifu.verify")


@click.command("verify")
@click.argument("log_path", metavar="LOG")
@click.argument("game", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--all", "full", is_flag=True, help="List every card of every zone in the state shown.")
@click.option("--rules", "version", metavar="VERSION", default=None,
              help="Re-run the decisions under this installed rules version of the game instead (what-if).")
@click.option("--given-setup-ok", "given_setup_ok", is_flag=True,
              help="Accept a log that declares a given set-up (a scenario, a judge's reconstruction).")
@game_option()
def verify(log_path: str, game: str | None, as_json: bool, full: bool, version: str | None,
           given_setup_ok: bool) -> None:
    """Re-adjudicate a game: run the rules again on its set-up, seed and decisions, and compare.

    The rules are the profile the log names (its GameStarted record), at the rules version it names. From the
    log's inputs (players, deck lists, seed, options) and decisions the rules give every record, envelope
    included: the first record they do not give is reported with the field that differs, both events, the
    decision it belongs to and the state just before it. A decision the rules refuse is reported with the rule
    it breaks. A log that declares a given set-up is said to, and exits 1 unless --given-setup-ok.

    With --rules VERSION the decisions are re-run under another installed release of the game (its rules
    and card pool): would the game have gone differently? The first divergence is reported with the state
    just before it, and with the change from the game's changelog that gives it.

    LOG is an exported JSON-lines file or a store; GAME may be left out when the store holds one game.
    Exit 0 the log and the rules agree, 1 they diverge, 2 the log cannot be read or names rules not installed.
    """
    if version is not None:
        _verify_under(load_log(log_path, game), version, as_json, full)
        return
    with open_log(log_path, game) as source:
        length = source.length() if on_terminal() and not as_json else 0
        with bar("verifying", 2 * length, wanted(length) and not as_json) as advance:
            counter = Counter(advance)
            chain, contiguous = _chain(source, counter)
            loaded = StreamedLog.open(source, contiguous=contiguous)
            result = readjudicate(loaded, loaded.profile(), counter)
        out = verify_json(loaded, result) if as_json else verify_lines(loaded, result, full=full)
    if isinstance(chain, integrity.Finding):  # answered from the log as it is, but never as if it were whole
        note_damage(f"{log_path}: the hash chain breaks at record {chain.seq} ({chain.problem}): "
                    f"{chain.message}; run kifu audit {log_path}")
    log.info("verified", source=log_path, game=loaded.game, same=result.same, decisions=result.decisions,
             divergence=result.divergence.seq if result.divergence else None)
    if isinstance(out, dict):
        click.echo(json.dumps(out, ensure_ascii=False, indent=2))
    else:
        for line in out:
            click.echo(line)
    if not result.same or (result.given is not None and not given_setup_ok):
        raise click.exceptions.Exit(errors.FINDING)


def _chain(source: LogSource, counter: Counter) -> tuple[integrity.Verified | integrity.Finding, bool]:
    """The hash chain as read, and whether the records are numbered 1, 2, ... in order (a first pass, which
    keeps nothing: re-adjudication must know whether a log with a gap can be taken up after a finding)."""
    contiguous = True
    count = 0

    def records() -> Iterator[RawRecord]:
        nonlocal contiguous, count
        for raw in source.records():
            count += 1
            contiguous = contiguous and raw.seq == count
            counter.tick()
            yield raw

    read = records()
    checked = integrity.verify(read, source.game)
    for _ in read:  # (the chain check stops at its first finding; the count goes on)
        pass
    counter.flush()
    return checked, contiguous


def _verify_under(loaded: LoadedLog, version: str, as_json: bool, full: bool) -> None:
    result = under_version(loaded, version)
    log.info("verified under other rules", source=loaded.location, game=loaded.game, version=version,
             same=result.same, divergence=result.divergence.seq if result.divergence else None)
    if as_json:
        click.echo(json.dumps(cross_json(loaded, result), ensure_ascii=False, indent=2))
    else:
        for line in cross_lines(loaded, result, full=full):
            click.echo(line)
    if not result.same:
        raise click.exceptions.Exit(errors.FINDING)
