"""Shadowverse zones, numbers and the moves every rule is made of (draw, damage, destroy, banish), as events.

Zones: ``deck``, ``hand``, ``field`` (at most 5 cards, left to right = order of entry), ``cemetery``,
``banished``, ``casting`` (a spell while its effect waits and resolves: it reaches the cemetery only after,
SV-O-83) and the pseudo-zone ``under`` (a pilot aboard a vehicle). Leaders are not objects: a leader is named
``leader(p) = -1 - p`` wherever a target may be a leader (the kernel's convention for players).

Numbers are player stats: ``life``, ``max_life``, ``pp``, ``max_pp``, ``ep``, ``evolved_turn`` (evolved this
turn), ``evolutions`` (times evolved), ``drawn_turn`` and ``avarice_forced`` (Avarice, read by no card),
``self_damage`` (Wrath), ``played_turn`` (Combo), ``entered`` (cards that came into play), ``resonance_changes``
(マグナゼロ), ``chosen`` (followers chosen as targets at play, from rules 1.7: ウルズ) and ``returned`` (mulligan).
A follower's damage is the status ``damage``; its defense is computed, never stored (STYLE 6).
"""

from __future__ import annotations

from eventsource import events as ev
from projections.characteristics import ObjectView, view
from projections.state import GameState
from statemachine import board as kit
from statemachine import replacements
from statemachine.board import kind_of, move, move_all, owner_zone, zone
from statemachine.board import player_ref as leader
from statemachine.engine import Engine

DECK, HAND, FIELD, CEMETERY, BANISHED, CASTING = "deck", "hand", "field", "cemetery", "banished", "casting"
EXTRA_TURNS = "extra_turns"  # a player's counter of extra turns waiting (SV-GAME-EXTRA-TURN)
LIMBO = "limbo"  # outside the game: where a made card waits to be summoned, a card played as another lies
FIELD_LIMIT = 5
NO_ROOM = "no_room"  # ZoneChanged.cause: a card that would come onto a full field is banished instead
HAND_LIMIT = 9  # SV-O-102 (option hand_limit; 8 shortly after release)
START_LIFE = 20

# Why a card moved (ZoneChanged.cause).
PLAY, SUMMON, DRAW, BURN, DESTROY, BANISH, TRANSFORM, DISCARD, RETURN, MULLIGAN, DISEMBARK, SPENT, BURIAL = (
    "play", "summon", "draw", "burn", "destroy", "banish", "transform", "discard", "return", "mulligan",
    "disembark", "spent", "burial_rite")
BOARD = "board"
UNDER_CAUSES = (BOARD,)  # a pilot boarding a vehicle goes under it: not leaving (SV-O-37)
ENTERING = (PLAY, SUMMON)  # causes that count as "comes into play" (not TRANSFORM, not DISEMBARK: SV-O-41/96)
WHILE_ON = "while_source_on_field"  # ContinuousEffectStarted.until: lost when its source leaves (SV-O-80)


def is_leader(target: int) -> bool:
    return target < 0


def leader_player(target: int) -> int:
    return -1 - target


def field(state: GameState, player: int) -> list[int]:
    return kit.in_zone(state, player, FIELD)


def followers(state: GameState, player: int) -> list[int]:
    """The player's followers on the field, left to right. A card's types are its printed types: no
    continuous effect changes them (``projections.characteristics.compute``), so no view is computed."""
    objects, cards = state.objects, state.cards
    return [o for o in state.zone(zone(player, FIELD)) if "follower" in cards[objects[o].card].printed.types]


def hand(state: GameState, player: int) -> list[int]:
    return kit.in_zone(state, player, HAND)


def on_field(state: GameState, oid: int) -> bool:
    return kit.is_in(state, oid, FIELD)


def has(state: GameState, oid: int, keyword: str) -> bool:
    return keyword in view(state, oid).chars.keywords


def controller_of(state: GameState, target: int) -> int:
    return leader_player(target) if is_leader(target) else state.objects[target].controller


# -- numbers -------------------------------------------------------------------------------------------------


def defense_of(v: ObjectView) -> int:
    """Defense now: printed defense with modifications (kernel "toughness" modifiers) minus damage."""
    return (v.chars.toughness or 0) - v.status.get("damage", 0)


def defense_read(v: ObjectView) -> int:
    """The defense an amount reads: 「破壊される直前の体力」 of a follower a -X/-X destroyed is its defense before
    the debuff (SV-O-85); otherwise its defense now, or in its look-back state (SV-O-73)."""
    return v.status.get("defense_before_debuff") or defense_of(v)


def defense(state: GameState, oid: int) -> int:
    return defense_of(view(state, oid))


def overflow(state: GameState, player: int) -> bool:
    """覚醒 (Overflow): maximum PP 7 or more."""
    return state.stat(player, "max_pp") >= 7


def vengeance(state: GameState, player: int) -> bool:
    """復讐 (Vengeance): leader's defense 10 or less."""
    return state.stat(player, "life") <= 10


def wrath(state: GameState, player: int) -> bool:
    """狂乱 (Wrath): the leader has taken damage during its own turns 7 or more times."""
    return state.stat(player, "self_damage") >= 7


def resonance(state: GameState, player: int) -> bool:
    """共鳴 (Resonance): an even number of cards in the deck."""
    return len(state.zone(zone(player, DECK))) % 2 == 0


def earth_sigils(state: GameState, player: int) -> list[int]:
    return [o for o in field(state, player) if "Earth Sigil" in view(state, o).chars.subtypes]


# -- drawing -------------------------------------------------------------------------------------------------


def draw(engine: Engine, player: int, count: int = 1, *, together: bool = False) -> int:
    """Draw one card at a time (SV-O-101); ``together`` draws them as one simultaneous group (SV-O-51).

    At the hand limit a drawn card burns: deck to cemetery, neither destroyed nor discarded (SV-O-102/103).
    A Victory or Death card decides the game the instant it is drawn (SV-O-04).
    """
    st = engine.state
    limit = engine.options.hand_limit or HAND_LIMIT
    before = resonance(st, player)
    drawn = 0
    group: list[ev.ZoneChanged] = []  # drawn together, not yet emitted: the top cards of the deck, in order
    for _ in range(count):
        deck = st.zone(zone(player, DECK))
        if len(deck) <= len(group):
            if not group:
                _deck_out(engine, player)
                return drawn
            break
        top = deck[len(group)]
        in_hand = len(st.zone(zone(player, HAND))) + sum(1 for g in group if g.cause == DRAW)
        dst, cause = (zone(player, HAND), DRAW) if in_hand < limit else (zone(player, CEMETERY), BURN)
        group.append(move(engine, top, dst, cause, new_id=st.next_object + len(group)))
        drawn += 1
        if not together:
            _emit_draws(engine, player, group)
            group = []
            if st.ended:
                return drawn
    if group:
        _emit_draws(engine, player, group)
    if resonance(st, player) != before:
        engine.emit(ev.PlayerStat(player, "resonance_changes", st.stat(player, "resonance_changes") + 1))
    return drawn


def _emit_draws(engine: Engine, player: int, group: list[ev.ZoneChanged]) -> None:
    st = engine.state
    n = sum(1 for g in group if g.cause == DRAW)
    engine.emit(*group, *([ev.PlayerStat(player, "drawn_turn", st.stat(player, "drawn_turn") + n)] if n else []))
    for g in group:
        if g.cause != DRAW or st.ended:
            continue
        kw = view(st, g.new).chars.keywords if g.new in st.objects else ()
        if "victory_card" in kw:  # SV-O-04: not a triggered effect
            engine.emit(ev.PlayerLost(1 - player, "victory card"), ev.GameEnded(player, "victory card"))
        elif "death_card" in kw:
            engine.emit(ev.PlayerLost(player, "death card"), ev.GameEnded(1 - player, "death card"))


def _deck_out(engine: Engine, player: int) -> None:
    if engine.options.deck_out == "off":
        return
    engine.emit(ev.PlayerLost(player, "deck out"), ev.GameEnded(1 - player, "deck out"))


# -- damage and healing ------------------------------------------------------------------------------------


def damage_cut(state: GameState, target: int) -> int:
    """How much less damage a follower takes now: its own cut plus every "allies take less" on the field,
    judged at the moment of damage (SV-O-79/81)."""
    owner = state.objects[target].controller
    cut = 0
    for m in state.modifiers.values():
        if m.target == target and m.kind == "damage_cut":
            cut += m.amount
    for o in field(state, owner):
        kw = view(state, o).chars.keywords
        if "ally_damage_cut_1" in kw and o != target:
            cut += 1
    return cut


def leader_shielded(state: GameState, player: int) -> bool:
    """SV-O-81: "the leader takes no damage while a certain card is on the field", judged at the moment."""
    for o in field(state, player):
        v = view(state, o)
        if "leader_no_damage" in v.chars.keywords or (
                "leader_no_damage_if_evolved" in v.chars.keywords and v.status.get("evolved")):
            return True
    return False


def redirect(state: GameState, player: int) -> bool:
    """ブラッディ・メアリー: during its controller's turn, damage to that leader goes to the enemy leader."""
    return state.active == player and any(
        "redirect_leader_damage" in view(state, o).chars.keywords for o in field(state, player))


def deal_damage(engine: Engine, target: int, amount: int, by: int) -> int:
    """Deal ``amount`` damage from player ``by``'s effect to one target now; returns the damage dealt.

    A follower at 0 defense is not destroyed here: destruction waits for the state check (SV-O-27).
    """
    st = engine.state
    if is_leader(target):
        p = leader_player(target)
        if redirect(st, p):
            p = 1 - p
        if leader_shielded(st, p) or amount <= 0:
            return 0
        events: list[ev.Event] = [ev.PlayerStat(p, "life", st.stat(p, "life") - amount)]
        if p == st.active:
            events.append(ev.PlayerStat(p, "self_damage", st.stat(p, "self_damage") + 1))
        engine.emit(*events)
        return amount
    if not on_field(st, target):
        return 0
    dealt = max(0, amount - damage_cut(st, target))
    if dealt <= 0:
        return 0
    engine.emit(ev.StatusSet(target, "damage", st.objects[target].status.get("damage", 0) + dealt),
                ev.StatusSet(target, "hit", st.objects[target].status.get("hit", 0) + 1))
    return dealt


def heal(engine: Engine, target: int, amount: int) -> int:
    st = engine.state
    if is_leader(target):
        p = leader_player(target)
        life, top = st.stat(p, "life"), st.stat(p, "max_life") or START_LIFE
        gain = max(0, min(amount, top - life))
        engine.emit(ev.PlayerStat(p, "life", life + gain), ev.PlayerStat(p, "healed", st.stat(p, "healed") + 1))
        return gain
    if not on_field(st, target):
        return 0
    dmg = st.objects[target].status.get("damage", 0)
    gain = min(amount, dmg)
    p = st.objects[target].controller
    engine.emit(ev.StatusSet(target, "damage", dmg - gain), ev.PlayerStat(p, "healed", st.stat(p, "healed") + 1))
    return gain


# -- leaving the field -----------------------------------------------------------------------------------------


def indestructible(state: GameState, oid: int) -> bool:
    return "indestructible" in view(state, oid).chars.keywords


def leaves_as_banish(state: GameState, oid: int) -> bool:
    """オーバーヒート: "banish it when it would leave"; 怪犬の墓守's "destroy it" wins (SV-O-119)."""
    mods = [m.value for m in state.modifiers.values() if m.target == oid and m.kind == "set_flag"]
    return "banish_on_leave" in mods and "destroy_on_leave" not in mods


def banished_instead(state: GameState, oid: int) -> bool:
    """SV-O-76: an effect in force banishes it instead of destroying it (ブラッドムーン: a static ``replaces``, the
    kernel's replacement effect ``"destroyed>banished"``)."""
    return replacements.instead(state, oid, "destroyed", view(state, oid).chars.types) == BANISHED


def destroy(engine: Engine, oid: int) -> bool:
    """Destroy one card on the field (it and any pilot aboard go to the cemetery; a token ceases to exist).

    A card that cannot be destroyed is not destroyed, and that does not count as destroying it (SV-O-86).
    """
    st = engine.state
    if not on_field(st, oid) or indestructible(st, oid):
        return False
    if leaves_as_banish(st, oid) or banished_instead(st, oid):
        banish(engine, oid)
        return False
    _leave(engine, oid, CEMETERY, DESTROY)
    return True


def banish(engine: Engine, oid: int) -> bool:
    """消滅: to the banished zone; no cemetery, no Last Words, not destroyed (SV-O-88..91)."""
    st = engine.state
    if not on_field(st, oid):
        return False
    _leave(engine, oid, BANISHED, BANISH)
    return True


def return_to_hand(engine: Engine, oid: int) -> None:
    _leave(engine, oid, HAND, RETURN)


def _leave(engine: Engine, oid: int, where: str, cause: str) -> None:
    st = engine.state
    obj = st.objects[oid]
    pilots = list(obj.under)
    moved = move(engine, oid, zone(obj.owner, where), cause)
    events: list[ev.Event] = [moved]
    if cause == DESTROY:
        p = obj.controller
        events.append(ev.PlayerStat(p, "destroyed_count", st.stat(p, "destroyed_count") + 1))
    engine.emit(*events)
    _lost_with(engine, oid)
    _disembark(engine, pilots)


def _disembark(engine: Engine, pilots: list[int]) -> None:
    """SV-O-40/41: the pilot aboard a vehicle that left returns to the field, not as "coming into play".

    Before 1.3 a pilot with no room on the field was left under nothing (KIFU-UNDER); from 1.3 (switch
    ``pilot_never_left``) it is banished, as any card that finds no room on the field is."""
    st = engine.state
    for pilot in pilots:
        if pilot not in st.objects:
            continue
        field = zone(st.objects[pilot].owner, FIELD)
        if len(st.zone(field)) < FIELD_LIMIT:
            engine.emit(move(engine, pilot, field, DISEMBARK))
        elif engine.profile.rules.pilot_never_left:
            engine.emit(move(engine, pilot, zone(st.objects[pilot].owner, BANISHED), NO_ROOM))


def _lost_with(engine: Engine, oid: int) -> None:
    """SV-O-79/80: effects "lost when this card leaves the field" end when it leaves — not a triggered effect,
    and whatever became of the card's abilities; ``fire.leader_instances`` also judges it at the moment."""
    ending = [m.effect for m in engine.state.modifiers.values() if m.until == WHILE_ON and m.source == oid]
    if ending:
        engine.emit(*[ev.ContinuousEffectEnded(e) for e in ending])


def transform(engine: Engine, oid: int, into: str) -> int | None:
    """変身: the card ceases to exist and a new card takes its place; nothing leaves, nothing enters
    (SV-O-92..96). Returns the new object."""
    st = engine.state
    if not on_field(st, oid):
        return None
    obj = st.objects[oid]
    pos = st.zones[obj.zone].index(oid)
    pilots = list(obj.under)
    gone = move(engine, oid, zone(obj.owner, BANISHED), TRANSFORM)
    engine.emit(gone)
    _lost_with(engine, oid)
    new = create(engine, into, obj.controller, FIELD, pos=pos, cause=TRANSFORM)
    if engine.profile.rules.pilot_never_left:  # SV-O-40: the vehicle is gone from the field, its pilot disembarks
        _disembark(engine, pilots)
    return new


def create(engine: Engine, definition: str, player: int, where: str, *, pos: int = -1, cause: str = SUMMON) -> int:
    """A token or a card made by an effect comes into the game in ``where`` (summoned: it comes into play)."""
    st = engine.state
    card = engine.profile.pool[definition]
    oid = st.next_object
    cid = max(st.cards, default=0) + 1
    z = zone(player, where)
    if kind_of(z) == FIELD and cause != TRANSFORM:
        # Made in a side zone, then summoned: entering is a ZoneChanged that "comes into play" triggers see.
        engine.emit(ev.ObjectCreated(oid, cid, card.id, player, zone(player, LIMBO), 0, card.printed()))
        if len(st.zone(z)) >= FIELD_LIMIT:
            engine.emit(move(engine, oid, zone(player, BANISHED), NO_ROOM))
            return -1
        return come_into_play(engine, oid, player, cause)
    engine.emit(ev.ObjectCreated(oid, cid, card.id, player, z, pos, card.printed()))
    return oid


def come_into_play(engine: Engine, oid: int, player: int, cause: str = SUMMON) -> int:
    """``oid`` moves onto ``player``'s field, summoned (not played): it comes into play and cannot attack this
    turn. Returns the object on the field."""
    moved = move(engine, oid, zone(player, FIELD), cause)
    engine.emit(moved, ev.StatusSet(moved.new, "sick", 1),
                ev.PlayerStat(player, "entered", engine.state.stat(player, "entered") + 1))
    return moved.new


# The kernel's board toolkit (statemachine.board), named here so Shadowverse's rules read board.move(...).
__all__ = ["kind_of", "leader", "move", "move_all", "owner_zone", "zone"]
