"""Debugging triggers: ``kifu why`` and ``kifu why-not``."""

from __future__ import annotations

import click

from tools.travel.explain import why as explain_why
from tools.travel.explain import why_not as explain_why_not
from tools.travel.points import open_at_points


@click.command("why")
@click.argument("log_path", metavar="LOG")
@click.argument("n", type=click.IntRange(min=1), metavar="N")
@click.option("--game", "game", default=None, metavar="GAME", help="The game, when the store holds several.")
def why(log_path: str, n: int, game: str | None) -> None:
    """Why record N happened, for a trigger, a pending effect, a choice for it, its resolution or its fizzle.

    Says which event caused the trigger (and the decision it belongs to), the state it was checked in (just
    before its event for leave and destroy triggers, just after otherwise), the source and subject as they
    were checked, the ability's conditions evaluated when it triggered and when it resolved, when it became
    pending, the choices made for it, and when and how it resolved or fizzled.

    On a store, only the records of the effect's life and the states it was checked in are read (each from the
    nearest snapshot); the hash chain is checked over them and at the store's head (damage: a warning, exit 1;
    the whole chain is kifu audit's). An exported file is read whole. A game whose rules are not installed is
    explained from what the log says.
    """
    with open_at_points(log_path, game) as log:
        lines = explain_why(log, n)
    for line in lines:
        click.echo(line)


@click.command("why-not")
@click.argument("log_path", metavar="LOG")
@click.argument("n", type=click.IntRange(min=1), metavar="N")
@click.argument("card", metavar="CARD")
@click.argument("ability", required=False, metavar="[ABILITY]")
@click.option("--game", "game", default=None, metavar="GAME", help="The game, when the store holds several.")
def why_not(log_path: str, n: int, card: str, ability: str | None, game: str | None) -> None:
    """Why an ability of CARD did not trigger on record N.

    CARD is an object id (#12 or 12), a card id (jababa_hat) or a card name; ABILITY limits the answer to one
    ability id. Each ability is checked the way the rules check it: is record N an event its trigger listens
    for, in which state (before or after), was the card in the zone the ability works from, were its
    abilities ignored there, does the event concern the right card and controller, does the filter hold —
    and the first check that fails is the answer.

    On a store, only the states around record N and the records of its decision are read, the hash chain checked
    over them and at the store's head (as for kifu why). For a game whose rules are not installed it says which
    abilities did trigger and that the others cannot be checked.
    """
    with open_at_points(log_path, game) as log:
        lines = explain_why_not(log, n, card, ability)
    for line in lines:
        click.echo(line)
