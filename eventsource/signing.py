"""Signed heads: who recorded a log, beside the hash chain that says it was not changed.

The chain proves a log is the one whose last hash you hold; it is unkeyed, so a forger who rewrites every hash
makes a new, self-consistent log. A signature closes that gap for whoever holds the recorder's public key: the
recorder signs the head of each committed decision with an Ed25519 key (the ``cryptography`` package does the
cryptography; nothing here is hand-rolled), and the head after the game's end is signed as *the end*, so a log
cut at any point lacks either its signed end or a later signed head.

What is signed is :func:`message`: a domain-separation prefix, then the msgpack array
``[key id, game, seq, head hash, end]``. The key id (the first 8 bytes of SHA-256 of the raw 32-byte public key)
is inside the message, so a signature cannot be passed off as another key's; the prefix keeps a kifu signature
from meaning anything in another protocol that signs with the same key.

Keys are PEM files (PKCS#8 for the private key, SubjectPublicKeyInfo for the public one), so OpenSSL and other
tools read them too. A :class:`Signer` holds a private key and never shows it: not in ``repr``, not in an
error. Only signatures and key ids go into logs and exports.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final

import msgspec
from msgspec import Struct

# ``cryptography`` is imported where keys are used: a store's reader needs ``Signature`` and nothing of it, and
# importing it costs a command that answers from a few records of a long log a good part of its time.
if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from eventsource.errors import KifuError, regular_file
from eventsource.records import RawRecord

DOMAIN: Final = b"kifu signed head v1\x00"
KEY_ID_SIZE: Final = 8
SIGNATURE_SIZE: Final = 64

_encoder = msgspec.msgpack.Encoder()


class BadKey(KifuError):
    """A key file that cannot be used (missing, unreadable, not an Ed25519 key of the kind asked for)."""


class Signature(Struct, frozen=True):
    """A signature over the head of a game's log at record ``seq`` (``head`` is that record's hash)."""

    game: str
    seq: int
    head: bytes
    key: bytes  # the signer's key id
    end: bool  # the head after the game ended: nothing may follow it
    sig: bytes


def message(key: bytes, game: str, seq: int, head: bytes, end: bool) -> bytes:
    """The exact bytes an Ed25519 signature covers."""
    return DOMAIN + _encoder.encode((key, game, seq, head, end))


def key_id(public: Ed25519PublicKey) -> bytes:
    from cryptography.hazmat.primitives import serialization

    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).digest()[:KEY_ID_SIZE]


class Signer:
    """Signs heads with one private key. The key itself is never shown."""

    __slots__ = ("_private", "key")

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.key = key_id(private.public_key())

    @classmethod
    def generate(cls) -> Signer:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        return cls(Ed25519PrivateKey.generate())

    def public(self) -> PublicKey:
        return PublicKey(self._private.public_key())

    def sign(self, game: str, seq: int, head: bytes, *, end: bool = False) -> Signature:
        sig = self._private.sign(message(self.key, game, seq, head, end))
        return Signature(game, seq, head, self.key, end, sig)

    def private_pem(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._private.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )

    def __repr__(self) -> str:
        return f"Signer(key {self.key.hex()})"


class PublicKey:
    """Checks signatures made by one key."""

    __slots__ = ("_public", "key")

    def __init__(self, public: Ed25519PublicKey) -> None:
        self._public = public
        self.key = key_id(public)

    def verifies(self, s: Signature) -> bool:
        """Whether ``s`` is this key's signature over its own game, seq, head and end."""
        from cryptography.exceptions import InvalidSignature

        if s.key != self.key or len(s.sig) != SIGNATURE_SIZE:
            return False
        try:
            self._public.verify(s.sig, message(s.key, s.game, s.seq, s.head, s.end))
        except InvalidSignature:
            return False
        return True

    def pem(self) -> bytes:
        from cryptography.hazmat.primitives import serialization

        return self._public.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)

    def __repr__(self) -> str:
        return f"PublicKey({self.key.hex()})"


def sign_heads(signer: Signer, records: Sequence[RawRecord], *, end: bool = False) -> list[Signature]:
    """Signatures over the heads a recorder would have signed in ``records``: each record after which a new
    decision begins, and the last (as the end when ``end``). For records stored in one go (a copied prefix)."""
    out = [signer.sign(a.game, a.seq, a.hash) for a, b in itertools.pairwise(records) if a.decision != b.decision]
    if records:
        last = records[-1]
        out.append(signer.sign(last.game, last.seq, last.hash, end=end))
    return out


# -- key files ------------------------------------------------------------------------------------------


def _read(path: str | Path, what: str) -> bytes:
    regular_file(path, f"the {what} key")
    try:
        with open(path, "rb") as handle:
            return handle.read(1 << 16)
    except OSError as exc:
        raise BadKey(f"cannot read the {what} key {path}: {exc.strerror}") from None


def load_public(path: str | Path) -> PublicKey:
    """The public key in a PEM file; a private key is refused (a judge needs only the public one)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    data = _read(path, "public")
    if b"PRIVATE KEY" in data:
        raise BadKey(f"{path} holds a private key; give the public key (the .pub file kifu keys new wrote)")
    try:
        public = serialization.load_pem_public_key(data)
    except (ValueError, TypeError, AssertionError):
        raise BadKey(f"{path} is not a PEM public key") from None
    if not isinstance(public, Ed25519PublicKey):
        raise BadKey(f"{path} is a public key, but not an Ed25519 key")
    return PublicKey(public)


def load_private(path: str | Path) -> Signer:
    """The private key in a PEM file (unencrypted PKCS#8, as ``kifu keys new`` writes it)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    data = _read(path, "private")
    try:
        private = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError, AssertionError):
        # The library's message may quote the file; say only what is wrong.
        raise BadKey(f"{path} is not an unencrypted PEM private key") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise BadKey(f"{path} is a private key, but not an Ed25519 key")
    return Signer(private)


def write_new(path: str | Path) -> tuple[Path, Path, Signer]:
    """Make a key pair: the private key at ``path`` (mode 0600), the public key at ``path.pub``.

    Neither file may exist already: a key is never overwritten.
    """
    private_path = Path(path)
    public_path = private_path.with_name(private_path.name + ".pub")
    for p in (private_path, public_path):
        if p.exists() or p.is_symlink():
            raise BadKey(f"{p} already exists; kifu keys new never overwrites a key")
    signer = Signer.generate()
    _create(private_path, signer.private_pem(), 0o600)
    try:
        _create(public_path, signer.public().pem(), 0o644)
    except BaseException:
        private_path.unlink(missing_ok=True)
        raise
    return private_path, public_path, signer


def _create(path: Path, data: bytes, mode: int) -> None:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    except FileExistsError:
        raise BadKey(f"{path} already exists; kifu keys new never overwrites a key") from None
    except OSError as exc:
        raise BadKey(f"cannot create {path}: {exc.strerror}") from None
    with os.fdopen(fd, "wb") as out:
        os.fchmod(fd, mode)  # whatever the umask
        out.write(data)
        out.flush()
        os.fsync(fd)
