"""``kifu audit``: the judge's report on one game's log."""

from __future__ import annotations

import json

import click

from eventsource import signing
from tools import errors
from tools.audit import checks as auditing
from tools.commands.options import game_option, head_option
from tools.logging import get_logger
from tools.logs.sources import open_log
from tools.progress import Counter, bar, on_terminal, wanted

log = get_logger("kifu.audit")


@click.command("audit")
@click.argument("log_path", metavar="FILE_OR_DB")
@click.argument("game", required=False)
@head_option("The game's head hash as published (kifu games prints it); also catches a cut-off end.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
@click.option("--no-rules", "no_rules", is_flag=True,
              help="Check integrity and fold only: no re-adjudication, no legality (no rules needed).")
@click.option("--given-setup-ok", "given_setup_ok", is_flag=True,
              help="Accept a log that declares a given set-up (a scenario, a judge's reconstruction) as clean.")
@click.option("--key", "key_path", metavar="PUBLIC", default=None,
              help="The recorder's public key (kifu keys new wrote it): check every signature; an unsigned, "
                   "wrongly signed, otherwise signed or cut-short log is a finding.")
@click.option("--source", "fork_source", metavar="FILE_OR_DB", default=None,
              help="For a what-if fork: its source's log as you hold it; the fork's copied records must be its.")
@game_option()
def audit(log_path: str, game: str | None, head: bytes | None, as_json: bool, no_rules: bool,
          given_setup_ok: bool, key_path: str | None, fork_source: str | None) -> None:
    """Check a game's log: an exported JSON-lines file or a store (a SQLite file, by header or .db).

    Runs, in order: integrity (every record is sound and the hash chain holds, so the log is the one whose
    head hash `kifu games` prints), fold (every event applies to the state before it), rules (re-adjudication:
    the rules the log names, run again on its set-up, seed and decisions, give exactly its consequences) and
    legality (every decision was legal at its point; each one that was not is named with the SPEC rule it
    breaks). Each problem is reported with its kind, its record and its position, then a summary. A what-if
    fork (kifu fork) also gets a fork check after integrity: its branch point is named, and its copied records
    must re-chain to the source's head there; that they are the source's is proven only against the source
    (in the same store, or given with --source), and said to be unproven otherwise. Rules and legality then
    judge both parts as one game.

    Re-adjudication derives every record from the log's inputs (players, deck lists, seed, options, the rules
    and card-pool versions it names) and its decisions: the opening, each card as the pool prints it, every
    event and every envelope field; a record the rules do not give is a finding naming its field. A log that
    declares a given set-up (its board was given, not dealt) is a finding unless --given-setup-ok.

    A log that stops early, or goes on past the end that was published, still chains: give --head, the
    published head, to check it ends exactly there (a head check; the other checks still run), or --key with
    the recorder's public key: a signed game's end is signed, so a log cut anywhere is a finding. Every body
    must be the engine's own encoding of its event, byte for byte (integrity, non-canonical). A store
    is first checked for damage (SQLite's own integrity check, and the records read against the head it lists).
    GAME may be left out when the store holds a single game. Exit 0 clean, 1 a problem found, 2 input that
    cannot be audited.
    """
    try:
        key = signing.load_public(key_path) if key_path is not None else None
        with open_log(log_path, game) as source:
            length = source.length() if on_terminal() and not as_json else 0
            with bar("auditing", length * auditing.passes(), wanted(length) and not as_json) as advance:
                counter = Counter(advance)
                report = auditing.run(source, counter, head, rules=not no_rules, given_setup_ok=given_setup_ok,
                                      key=key, fork_source=fork_source)
    except errors.BAD_INPUT_ERRORS as exc:
        if as_json:
            click.echo(json.dumps(auditing.error_json(log_path, errors.describe(exc)), ensure_ascii=False))
        raise
    log.info("audited", source=log_path, game=report.game, clean=report.clean, records=report.records)
    if as_json:
        click.echo(json.dumps(auditing.to_json(report), ensure_ascii=False, indent=2))
    else:
        for line in auditing.render_text(report):
            click.echo(line)
    if not report.clean:
        raise click.exceptions.Exit(errors.FINDING)
