"""`bench load --record RUN_DIR`: what the bot sent during the play window, for `bench floor --same-work RUN_DIR`.

RUN_DIR holds:
- `state.pickle`: the fake Discord's records when the window opened (channels, messages, tokens,
  attachments), so that a fresh fake can take the same requests;
- `interactions.jsonl`: every click handed to the bot in the window: its offset from the window's start
  (seconds), its token, its INTERACTION_CREATE payload and what the fake keeps about it;
- `requests.jsonl`: every request the bot made in the window that reached the fake (a 429 from the rate
  limiter is not one: the replay meets its own), in arrival order: offset, method, path (percent-decoded),
  query, JSON body (payload_json for a multipart one), the files (name, digest), `via` ("http": the
  bot's token; "webhook": an interaction's token), the interaction it answered or followed (its token, when
  the path carries one), the ids the fake gave out answering it, and the status;
- `blobs/DIGEST`: each attachment's bytes, once per distinct file;
- `meta.json`: the run's figures the floor is compared against (the bot's CPU, decisions, AI searches) and
  the rate limits the fake applied.

The ids: the fake gives ids from a counter; the replay hands each request the ids it got here (matched by
method, path, body and files), so every later path and body names the same messages and attachments.
"""

from __future__ import annotations

import json
import pickle
import time
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any
from urllib.parse import unquote

from bench._same_work import SKIPPED, call_key, token_of

if TYPE_CHECKING:
    from fakediscord.fake_discord import Call, FakeDiscord
    from fakediscord.loopback import Loopback


class Recorder:
    """Writes RUN_DIR while a load run's window is open (`start` ... `stop`)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.recording = False
        self.started = 0.0
        self.requests = 0
        self.interactions = 0
        self.blobs: set[str] = set()
        self._allocated: list[int] | None = None  # ids the fake gives out while it answers one request
        self._requests: IO[str] | None = None
        self._interactions: IO[str] | None = None
        self._lb: Loopback | None = None

    # --- the fake's ids ---------------------------------------------------------------------------
    def watch(self, lb: Loopback) -> None:
        """Count the ids the fake gives out per request (from now on; before `start` nothing is written)."""
        fake = lb.fake
        self._lb = lb
        lb.blobs = {}
        counter = fake.snowflake

        def snowflake() -> int:
            value = counter()
            if self._allocated is not None:
                self._allocated.append(value)
            return value

        fake.snowflake = snowflake  # type: ignore[method-assign]

    def handling(self) -> None:
        """The fake begins answering a request."""
        self._allocated = []

    # --- the window ---------------------------------------------------------------------------------
    def start(self, fake: FakeDiscord) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / "blobs").mkdir(exist_ok=True)
        state = {k: v for k, v in vars(fake).items() if k not in SKIPPED and not callable(v)}
        with open(self.directory / "state.pickle", "wb") as out:
            pickle.dump(state, out, pickle.HIGHEST_PROTOCOL)
        self._requests = open(self.directory / "requests.jsonl", "w", encoding="utf-8")  # noqa: SIM115
        self._interactions = open(self.directory / "interactions.jsonl", "w", encoding="utf-8")  # noqa: SIM115
        self.started = time.perf_counter()
        self.recording = True

    def stop(self, meta: dict[str, Any] | None = None) -> None:
        if not self.recording:
            return
        self.recording = False
        for out in (self._requests, self._interactions):
            if out is not None:
                out.close()
        if self._lb is not None:
            self._lb.blobs = None
        self.write_meta(meta or {})

    def write_meta(self, meta: dict[str, Any]) -> None:
        path = self.directory / "meta.json"
        old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        old.update(meta, requests=self.requests, interactions=self.interactions, blobs=len(self.blobs))
        path.write_text(json.dumps(old, indent=2) + "\n", encoding="utf-8")

    # --- what happens in it -------------------------------------------------------------------------
    def interaction(self, payload: dict[str, Any], token: str, source: dict[str, Any] | None) -> None:
        if not self.recording or self._interactions is None:
            return
        at = time.perf_counter() - self.started
        self.interactions += 1
        record = {"at": round(at, 4), "token": token, "payload": payload, "source": source}
        self._interactions.write(json.dumps(record, separators=(",", ":")) + "\n")

    def request(self, call: Call) -> None:
        """A request the fake answered (or refused: a 4xx is sent again as it was)."""
        allocated, self._allocated = self._allocated or [], None
        if not self.recording or self._requests is None:
            return
        blobs = self._lb.blobs if self._lb is not None and self._lb.blobs is not None else {}
        for upload in call.uploads:
            if upload.digest not in self.blobs and upload.digest in blobs:
                (self.directory / "blobs" / upload.digest).write_bytes(blobs[upload.digest])
                self.blobs.add(upload.digest)
            blobs.pop(upload.digest, None)
        at = time.perf_counter() - self.started
        path = unquote(call.path)
        files = [[u.filename, u.digest] for u in call.uploads]
        record = {
            "at": round(at, 4),
            "method": call.method,
            "path": path,
            "query": call.query,
            "body": call.json,
            "files": files,
            "via": call.via,
            "token": token_of(path),
            "ids": allocated,
            "status": call.status,
            "key": call_key(call.method, path, call.json, [d for _n, d in files]),
        }
        self.requests += 1
        self._requests.write(json.dumps(record, separators=(",", ":")) + "\n")
