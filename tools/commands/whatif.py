"""What-if: ``kifu fork`` (a new game from the state after record N of a log) and ``kifu decide`` (the legal
decisions of a stored game, and playing one), so a judge can play a game on differently from any point."""

from __future__ import annotations

import click

from eventsource import events as ev
from eventsource import signing
from eventsource.store import EventStore
from statemachine.decisions import IllegalDecision
from statemachine.engine import Engine
from tools import errors
from tools.commands.options import db_option, player_option
from tools.errors import BadInput
from tools.logging import get_logger
from tools.logs.stores import open_store, pick_game
from tools.travel.decide import choose_decision, listing_lines
from tools.travel.loaded import LoadedLog, load_log

log = get_logger("kifu.whatif")


def _profile(store: EventStore, game: str) -> object:
    first = next(store.read(game, 1, 1), None)
    if first is None or not isinstance(first.event, ev.GameStarted):
        raise BadInput(f"game {game!r} does not begin with GameStarted, so it names no rules")
    from statemachine.games import profile
    from statemachine.releases import UnknownVersion

    try:
        return profile(first.event.profile, first.event.profile_version)
    except UnknownVersion as exc:
        raise BadInput(str(exc)) from exc


@click.command("fork")
@click.argument("log_path", metavar="LOG")
@click.argument("n", type=click.IntRange(min=0), metavar="N")
@db_option(help_text="The store to start the fork in (created if missing): a SQLite path or a postgresql:// URL.")
@click.option("--as", "name", default=None, metavar="GAME", help="The fork's game id [default: SOURCE-fork-N].")
@click.option("--game", "game", default=None, metavar="SOURCE", help="The game to fork, when LOG holds several.")
@click.option("--key", "key", metavar="PRIVATE", default=None,
              help="Sign the fork's heads with this private key (kifu keys new); kifu decide --key goes on.")
def fork(log_path: str, n: int, db: str, name: str | None, game: str | None, key: str | None) -> None:
    """Start a what-if game from the state just after record N of LOG.

    The new game holds LOG's records 1 to N unchanged (re-chained under its own id) and a branch point naming
    the source game and its hash at N; audit checks from the fork alone that its first part is the source's.
    Then play it on with kifu decide and compare with kifu diff. N must be a point where the rules wait for a
    decision (the last record of the opening, of a decision, or of the log); otherwise the nearest are named.
    """
    signer = signing.load_private(key) if key is not None else None
    source = load_log(log_path, game)
    name = name or f"{source.game}-fork-{n}"
    profile = source.profile()
    with open_store(db, write=True) as store:
        engine = Engine.fork(profile, source.store, source.game, n, store=store, game=name, signer=signer)
        forked = load_log(db, name)
    log.info("forked", source=log_path, game=source.game, at=n, fork=name, store=db)
    click.echo(f"forked {source.game!r} after record {n} into game {name!r} in {db}: records 1 to {n} copied, "
               f"branch point at record {n + 1}")
    if n < source.last:
        click.echo(f"the original went on with {source.line(n + 1)}")
    for line in listing_lines(engine, engine.legal(), f"--db {db} {name}", forked.memory):
        click.echo(line)


@click.command("decide")
@db_option()
@click.argument("words", nargs=-1, metavar="GAME [NUMBER | ACTION ARGS...]")
@player_option("Decide as player P (a seat number, else a name) [default: the player the rules wait for].")
@click.option("--game", "game", default=None, metavar="GAME",
              help="The game; then every word is the decision (a store holding one game needs no name).")
@click.option("--key", "key", metavar="PRIVATE", default=None,
              help="Sign the head this decision ends in (and the game's end) with this private key.")
def decide(db: str, words: tuple[str, ...], player: str | None, game: str | None, key: str | None) -> None:
    """The legal decisions of a stored game now, or play one of them.

    Without a decision: who must decide and the numbered legal decisions (Engine.legal). With NUMBER: play that
    one of the listing; with ACTION ARGS...: play that decision (numbers are object or effect ids). A decision
    the rules refuse is reported with the rule it breaks and nothing is appended (exit 2).

    The game is the first word, or --game GAME (then all words are the decision).
    """
    if game is None and words:
        game, words = words[0], words[1:]
    _decide(db, game, words, player, signing.load_private(key) if key is not None else None)


def _decide(db: str, game: str | None, decision: tuple[str, ...], player: str | None,
            signer: signing.Signer | None = None) -> None:
    with open_store(db, write=bool(decision)) as store:
        info = pick_game(store, game, db)
        engine = Engine.load(_profile(store, info.game), store, info.game, signer=signer)  # type: ignore[arg-type]
        legal = engine.legal()
        where = f"--db {db} {info.game}"
        if not decision:
            for line in listing_lines(engine, legal, where, load_log(db, info.game).memory):
                click.echo(line)
            return
        chosen = choose_decision(engine, legal, decision, player)
        start = engine.state.seq
        try:
            engine.decide(chosen)
        except IllegalDecision as refused:
            click.echo(f"refused: {refused.named}: {refused.reason} [{refused.rule}]; nothing was appended", err=True)
            raise click.exceptions.Exit(errors.BAD_INPUT) from None
        after = load_log(db, info.game)
    log.info("decided", store=db, game=info.game, decision=str(chosen), records=after.last - start)
    _played(after, start, engine, where)


def _played(after: LoadedLog, start: int, engine: Engine, where: str) -> None:
    click.echo(f"played: records {start + 1} to {after.last}")
    for seq in range(start + 1, after.last + 1):
        click.echo(f"  {after.line(seq)}")
    for line in listing_lines(engine, engine.legal(), where, after.memory):
        click.echo(line)
