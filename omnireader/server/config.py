"""What the operator sets for ``omnireader serve``: the store, the bind address, the keys and
the limits. Checked once at start-up, so a bad setting is one line, not a crash later."""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

from pydantic import BaseModel, Field

from omnireader.errors import ConfigError

__all__ = ["Limits", "ServerConfig", "parse_keys", "is_loopback_host"]

KEYS_ENV = "OMNIREADER_API_KEYS"


class Limits(BaseModel):
    """Every limit answers with 413 (too big) or 429 (too many), never a crash."""

    max_request_bytes: int = Field(2 * 1024 * 1024, gt=0, description="a JSON request body")
    max_upload_bytes: int = Field(100 * 1024 * 1024, gt=0, description="one uploaded file")
    max_files_per_request: int = Field(100, gt=0)
    max_concurrent_jobs: int = Field(16, gt=0, description="ingest jobs queued or running")
    rate_per_minute: int = Field(600, gt=0, description="requests per key (or client) a minute")
    max_spool_bytes: int = Field(2 * 1024**3, gt=0, description="all spooled uploads together")


class ServerConfig(BaseModel):
    db: Path
    host: str = "127.0.0.1"
    port: int = 8700
    keys: dict[str, str] = Field(default_factory=dict, description="API key -> user_id")
    insecure_no_auth: bool = False
    allow_private_urls: bool = False
    spool: Path | None = None  # default: <db>/../.omnireader-spool-<db name>
    workers: int = 1  # parser processes per ingest job
    # Ingest (job threads, their writer, their parser processes, index upkeep) runs at this
    # nice value so searches get the cores first; 0 keeps ingest at normal priority.
    ingest_nice: int = Field(10, ge=0, le=19)
    # Fast-mode jobs run in a child process (its own interpreter lock and LanceDB threads,
    # all at ``ingest_nice``); False keeps them in the server's process.
    ingest_process: bool = True
    limits: Limits = Field(default_factory=Limits)
    # Job webhooks (see docs/service-webhooks.md): attempts in all, each bounded by the
    # timeout, the n-th retry ``webhook_backoff * 2**(n-1)`` seconds after the one before.
    webhook_attempts: int = Field(6, ge=1, le=20)
    webhook_timeout: float = Field(10.0, gt=0, le=120)
    webhook_backoff: float = Field(2.0, gt=0, le=600)

    @property
    def spool_dir(self) -> Path:
        if self.spool is not None:
            return self.spool
        return self.db.parent / f".{self.db.name}.spool"

    def check_bind(self) -> None:
        """Without keys the server answers anyone who can reach it: loopback only."""
        if not self.keys and not self.insecure_no_auth and not is_loopback_host(self.host):
            raise ConfigError(
                f"--host {self.host!r} is not a loopback address and no API keys are set: "
                f"set {KEYS_ENV} (key:user,...) or --keys-file, bind to 127.0.0.1, or pass "
                "--insecure-no-auth to serve everyone who can reach it"
            )


def is_loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def parse_keys(text: str, origin: str) -> dict[str, str]:
    """``key1:alice,key2:bob`` (commas or new lines; ``#`` starts a comment) -> key: user."""
    keys: dict[str, str] = {}
    for raw in text.replace(",", "\n").splitlines():
        entry = raw.split("#", 1)[0].strip()
        if not entry:
            continue
        key, sep, user = entry.partition(":")
        key, user = key.strip(), user.strip()
        if not sep or not key or not user:
            raise ConfigError(
                f"{origin}: {entry[:20]!r}… is not KEY:USER_ID (e.g. s3cret:alice,0ther:bob)"
            )
        if len(key) < 8:
            raise ConfigError(
                f"{origin}: the key for user {user!r} is shorter than 8 "
                "characters: use a long random key"
            )
        keys[key] = user
    return keys


def keys_from(keys_file: Path | None) -> dict[str, str]:
    """Keys from ``--keys-file`` and the environment variable (both may be given)."""
    keys: dict[str, str] = {}
    if keys_file is not None:
        try:
            keys.update(parse_keys(keys_file.read_text(), f"--keys-file {str(keys_file)!r}"))
        except OSError as e:
            raise ConfigError(
                f"--keys-file {str(keys_file)!r}: cannot read it: {e.strerror or e}"
            ) from None
    if os.environ.get(KEYS_ENV):
        keys.update(parse_keys(os.environ[KEYS_ENV], f"environment variable {KEYS_ENV}"))
    return keys
