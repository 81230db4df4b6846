"""``kifu keys new``: an Ed25519 key pair for signing the games one records."""

from __future__ import annotations

import click

from eventsource import signing
from tools.logging import get_logger

log = get_logger("kifu.keys")


@click.group("keys")
def keys() -> None:
    """Signing keys: whoever records games signs them (kifu demo --key), judges check (kifu audit --key)."""


@keys.command("new")
@click.argument("path", metavar="PRIVATE")
def new(path: str) -> None:
    """Write a new key pair: the private key to PRIVATE (mode 0600) and the public key to PRIVATE.pub.

    Neither file may exist: a key is never overwritten. Keep the private key to yourself; hand the .pub file
    to whoever audits your games. Both are PEM files (PKCS#8 and SubjectPublicKeyInfo), as OpenSSL writes them.
    """
    private, public, signer = signing.write_new(path)
    log.info("key pair written", key=signer.key.hex(), public=str(public))
    click.echo(f"key {signer.key.hex()}: private key {private} (keep it secret), public key {public}")
