"""Signed heads (eventsource.signing): what a signature covers, key files, and an engine that signs."""

from __future__ import annotations

import itertools
import stat
from pathlib import Path

import msgspec
import pytest

from eventsource import signing
from eventsource.memory import MemoryStore
from eventsource.signing import BadKey, Signature, Signer
from statemachine.bots import RandomBot
from statemachine.engine import Engine
from statemachine.games.duel_masters import DuelMasters
from statemachine.games.duel_masters.demo import DECK_A, DECK_B, PLAYERS

HEAD = bytes(range(16))


def test_a_signature_verifies_only_over_the_game_seq_head_and_end_it_was_made_for() -> None:
    signer = Signer.generate()
    public = signer.public()
    s = signer.sign("g1", 42, HEAD, end=True)
    assert s == Signature("g1", 42, HEAD, signer.key, True, s.sig)
    assert public.verifies(s)
    for changed in (
        msgspec.structs.replace(s, game="g2"),
        msgspec.structs.replace(s, seq=43),
        msgspec.structs.replace(s, head=bytes(16)),
        msgspec.structs.replace(s, end=False),
        msgspec.structs.replace(s, sig=bytes(64)),
    ):
        assert not public.verifies(changed)


def test_another_keys_signature_does_not_verify_even_when_it_claims_the_right_key_id() -> None:
    mine, other = Signer.generate(), Signer.generate()
    forged = msgspec.structs.replace(other.sign("g", 1, HEAD), key=mine.key)
    assert not mine.public().verifies(forged)
    assert not mine.public().verifies(other.sign("g", 1, HEAD))
    assert mine.key != other.key


def test_the_signed_message_is_domain_separated_and_names_the_key() -> None:
    signer = Signer.generate()
    message = signing.message(signer.key, "g", 7, HEAD, False)
    assert message.startswith(b"kifu signed head v1\x00")
    assert signer.key in message
    assert message != signing.message(signer.key, "g", 7, HEAD, True)
    # The signature is an Ed25519 signature of exactly that message.
    s = signer.sign("g", 7, HEAD)
    signer.public()._public.verify(s.sig, message)


def test_keys_new_writes_a_private_key_only_its_owner_can_read_and_refuses_to_overwrite(tmp_path: Path) -> None:
    private, public, signer = signing.write_new(tmp_path / "judge")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert public == tmp_path / "judge.pub"
    assert signing.load_private(private).key == signer.key
    assert signing.load_public(public).key == signer.key
    before = private.read_bytes(), public.read_bytes()
    with pytest.raises(BadKey, match="already exists"):
        signing.write_new(private)
    (tmp_path / "other.pub").write_text("x")
    with pytest.raises(BadKey, match="already exists"):
        signing.write_new(tmp_path / "other")
    assert not (tmp_path / "other").exists()
    assert (private.read_bytes(), public.read_bytes()) == before


def test_key_files_of_the_wrong_kind_are_refused_without_quoting_them(tmp_path: Path) -> None:
    private, public, _ = signing.write_new(tmp_path / "k")
    secret = private.read_text()
    with pytest.raises(BadKey, match="holds a private key") as refused:
        signing.load_public(private)
    assert secret not in str(refused.value)
    assert secret.splitlines()[1] not in str(refused.value)
    with pytest.raises(BadKey, match="not an unencrypted PEM private key"):
        signing.load_private(public)
    damaged = tmp_path / "damaged"
    damaged.write_text(secret[:-30])  # a private key cut short
    with pytest.raises(BadKey) as refused:
        signing.load_private(damaged)
    assert secret.splitlines()[1][:20] not in str(refused.value)
    with pytest.raises(BadKey, match="cannot read"):
        signing.load_public(tmp_path / "missing.pub")


def test_a_signer_never_shows_its_private_key() -> None:
    signer = Signer.generate()
    pem = signer.private_pem().decode()
    body = "".join(pem.splitlines()[1:-1])
    assert body not in repr(signer) and body not in str(signer)
    assert signer.key.hex() in repr(signer)


def _play(engine: Engine, decisions: int) -> None:
    bots = [RandomBot(11), RandomBot(12)]
    for _ in range(decisions):
        legal = engine.legal()
        if legal.player is None:
            return
        engine.decide(bots[legal.player].choose(legal))


def test_an_engine_with_a_signer_signs_every_committed_head_and_the_end() -> None:
    signer, store = Signer.generate(), MemoryStore()
    engine = Engine.new(DuelMasters(), PLAYERS, [DECK_A, DECK_B], 5, store=store, game="g", signer=signer)
    _play(engine, 2000)
    assert engine.state.ended
    raws = list(store.read_raw("g"))
    signatures = store.signatures("g")
    decision_ends = [a.seq for a, b in itertools.pairwise(raws) if a.decision != b.decision]
    assert [s.seq for s in signatures] == [*decision_ends, raws[-1].seq]
    assert all(s.head == raws[s.seq - 1].hash and signer.public().verifies(s) for s in signatures)
    assert [s.seq for s in signatures if s.end] == [raws[-1].seq]


def test_an_engine_loaded_with_a_signer_goes_on_signing_and_one_without_does_not() -> None:
    signer, store = Signer.generate(), MemoryStore()
    engine = Engine.new(DuelMasters(), PLAYERS, [DECK_A, DECK_B], 9, store=store, game="g", signer=signer)
    _play(engine, 3)
    signed = len(store.signatures("g"))
    assert signed == 4  # the set-up's commit and three decisions
    _play(Engine.load(DuelMasters(), store, "g", signer=signer), 2)
    assert len(store.signatures("g")) == signed + 2
    _play(Engine.load(DuelMasters(), store, "g"), 2)
    assert len(store.signatures("g")) == signed + 2
    assert not any(s.end for s in store.signatures("g"))
