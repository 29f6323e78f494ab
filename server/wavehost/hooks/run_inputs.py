"""What each recorded hook run received, so the settings page can run a hook again on it.

Beside a project's run log (`<log>.inputs.jsonl`), private to the user as transcripts are (the
file is 0600: inputs hold prompts, commands and file contents). One line per input: an id the run
records point at, the payload with every field (those other dialects render too), and the stdin
when a test sent its own. Bounded: an input over `per_input` bytes is not kept (its runs say so by
having none), and past `max_bytes` the oldest half of the file goes. A damaged line is skipped;
a file that cannot be written costs the input, never the run.
"""

import contextlib
import json
import logging
import os
import re
import secrets
import stat
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pydantic_core

from wavehost.hooks.config import HookHandler
from wavehost.hooks.payloads import HookInput
from wavehost.plumbing import disk
from wavehost.plumbing.atomic import write_temp
from wavehost.plumbing.locks import locked_directory

log = logging.getLogger(__name__)

PER_INPUT = 64 * 1024  # bytes of one input's line at most
MAX_BYTES = 4 * 1024 * 1024
APPEND = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
INPUT_ID = re.compile(r"[0-9a-f]{16}")
_HISTORY = "history"  # the conversation, a callable on the payload: kept as what it returned


def inputs_path(run_log: Path) -> Path:
    return run_log.with_name(run_log.stem + ".inputs.jsonl")


def payload_document(payload: HookInput) -> dict[str, Any]:
    """Every field of the payload, the ones the Wave stdin leaves out too (the instant, the tool
    result the model saw, the conversation): what rendering it again in any dialect needs."""
    doc: dict[str, Any] = {name: getattr(payload, name) for name in type(payload).model_fields}
    doc.update(payload.model_extra or {})
    if callable(doc.get(_HISTORY)):
        doc[_HISTORY] = doc[_HISTORY]()
    return doc


def payload_of(handler: HookHandler, doc: dict[str, Any]) -> HookInput:
    """A kept payload as the hook's event reads it (raises pydantic's ValidationError)."""
    data = dict(doc)
    if isinstance(data.get(_HISTORY), list):
        saved = data[_HISTORY]
        data[_HISTORY] = lambda: saved
    payload = handler.event.spec.payload.model_validate(data)
    assert isinstance(payload, HookInput)
    return payload


@dataclass(frozen=True, slots=True)
class KeptInput:
    id: str
    payload: dict[str, Any]
    stdin: str | None  # what a test sent instead of the payload's own rendering


class RunInputs:
    def __init__(self, path: Path, *, per_input: int = PER_INPUT, max_bytes: int = MAX_BYTES):
        self.path = path
        self.per_input = per_input
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._lane = disk.lane(path)  # written off the event loop, as the run log is

    def keep(self, payload: HookInput, stdin: str | None = None) -> str | None:
        """Record an input (the write goes to the disk thread); its id, or None when it is too
        large or cannot be serialised. A write that fails later costs the input: `get` then says
        it is not kept."""
        input_id = secrets.token_hex(8)
        try:
            body = pydantic_core.to_json(payload_document(payload))
        except (pydantic_core.PydanticSerializationError, ValueError, TypeError) as err:
            log.warning("cannot keep a hook input: %s", err)
            return None
        extra = b"" if stdin is None else b',"stdin":' + json.dumps(stdin).encode("utf-8")
        line = b'{"id":"' + input_id.encode() + b'","payload":' + body + extra + b"}\n"
        if len(line) > self.per_input:
            return None
        self._lane.submit(lambda: self._write(line))
        return input_id

    def _write(self, line: bytes) -> None:
        try:
            self._append(line)
        except OSError as err:
            log.warning("cannot write the hook inputs %s: %s", self.path, err)

    def get(self, input_id: str) -> KeptInput | None:
        if not INPUT_ID.fullmatch(input_id):
            return None
        self._lane.wait()  # what this process kept is in the file
        prefix = b'{"id":"' + input_id.encode() + b'"'
        for line in self._lines():
            if not line.startswith(prefix):
                continue
            try:
                raw = json.loads(line)
            except ValueError:
                return None
            payload, stdin = raw.get("payload"), raw.get("stdin")
            if isinstance(payload, dict) and (stdin is None or isinstance(stdin, str)):
                return KeptInput(input_id, payload, stdin)
            return None
        return None

    def _lines(self) -> list[bytes]:
        """The lines of the file's newest `max_bytes` (and one input more)."""
        limit = self.max_bytes + self.per_input
        try:
            with open(self.path, "rb") as file:
                size = os.fstat(file.fileno()).st_size
                if size > limit:
                    file.seek(size - limit)
                    file.readline()  # the rest of a line cut in the middle
                return file.read(limit).splitlines()
        except OSError:
            return []

    def _append(self, line: bytes) -> None:
        with self._lock:
            try:
                fd = os.open(self.path, APPEND, 0o600)
            except FileNotFoundError:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(self.path, APPEND, 0o600)
            try:
                info = os.fstat(fd)
                if stat.S_IMODE(info.st_mode) & 0o077:  # made by someone else: private again
                    os.fchmod(fd, 0o600)
                os.write(fd, line)
                size = info.st_size + len(line)
            finally:
                os.close(fd)
        if size > self.max_bytes:
            self._compact()

    def _compact(self) -> None:
        """Keep the newest half (under the folder's lock, other writers' lines included)."""
        with locked_directory(self.path.parent), self._lock:
            lines = self._lines()
            kept: list[bytes] = []
            total = 0
            for line in reversed(lines):
                if total + len(line) + 1 > self.max_bytes // 2:
                    break
                kept.append(line + b"\n")
                total += len(line) + 1
            with contextlib.suppress(FileNotFoundError):
                temp, _ = write_temp(self.path, b"".join(reversed(kept)), None)  # 0600
                os.replace(temp, self.path)
