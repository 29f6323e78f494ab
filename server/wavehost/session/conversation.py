"""A session's messages: every change goes through here, is reported, and reaches the transcript.

Structural changes (a message added or removed, a tool's status, a notice) rewrite the transcript
at once; streamed text only marks it dirty and is written at the end of the stream or before the
next hook runs, so a hook reading `transcript_path` always sees the conversation so far. Those
saves are atomic but leave durability (the data's fsync and the directory's, milliseconds each,
several times a tool call, while a hook waits) to the end of the turn, the start of the session
and its end (`durable`); a crash in between falls back on the last turn (`session.transcript`).

A save is a snapshot, encoded at once; the file is written on a disk thread (`plumbing.disk`), so
its fsyncs and rename never hold up the event loop the other sessions and pages share. Saves that
pile up while one is being written become one write, of the newest. `flush` waits (without holding
up the loop) until the file is written: before a hook may read it, and before the session says a
turn is over.
"""

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from wavehost.plumbing import disk
from wavehost.session import transcript
from wavehost.session.messages import (
    AssistantMessage,
    ModelMessage,
    NoticeBlock,
    UserMessage,
    to_model_messages,
)
from wavehost.session.updates import MessageChanged, MessageRemoved, UpdateListener

AnyMessage = UserMessage | AssistantMessage
M = TypeVar("M", UserMessage, AssistantMessage)


class Conversation:
    def __init__(
        self,
        session_id: str,
        path: Path,
        messages: list[AnyMessage],
        describe: Callable[[list[AnyMessage]], transcript.Transcript],
        listener: UpdateListener | None = None,
    ) -> None:
        self.session_id = session_id
        self.path = path
        self.messages = messages
        self.turn_start = len(messages)  # where the running turn's messages begin
        self._describe = describe
        self._listener = listener
        self._dirty = True
        self._version = 0  # counts the changes: what the model sees is worked out once per change
        self._model: tuple[int, tuple[ModelMessage, ...]] | None = None
        self._durable = True  # the last save's rename is durable (or will be, once written)
        self._lane = disk.lane(path)
        self._lock = threading.Lock()  # what the disk thread is to write next:
        self._unwritten: bytes | None = None  # the newest snapshot not written yet
        self._unsynced = False  # a directory fsync owed after it
        self._queued = False  # a write job is in the lane and has not taken them yet

    def _index(self, message: AnyMessage) -> int:
        for index in range(len(self.messages) - 1, -1, -1):  # usually the last one
            if self.messages[index] is message:
                return index
        raise ValueError(f"message {message.id} is not in the conversation")

    def begin_turn(self) -> None:
        self.turn_start = len(self.messages)

    def append(self, message: M) -> M:
        self.messages.append(message)
        self.changed(message)
        return message

    def remove(self, message: AnyMessage) -> None:
        index = self._index(message)
        del self.messages[index]
        self.turn_start = min(self.turn_start, len(self.messages))
        self._dirty = True
        self._version += 1
        if self._listener is not None:
            self._listener(MessageRemoved(self.session_id, index, message.id))
        self.save()

    def changed(self, message: AnyMessage, *, persist: bool = True) -> None:
        self._dirty = True
        self._version += 1
        if self._listener is not None:
            self._listener(MessageChanged(self.session_id, self._index(message), message))
        if persist:
            self.save()

    def model_messages(self) -> tuple[ModelMessage, ...]:
        """The conversation as the model sees it (`to_model_messages`), worked out once per
        change: the context estimate and the request of a model call both ask for it."""
        if self._model is None or self._model[0] != self._version:
            self._model = (self._version, tuple(to_model_messages(self.messages)))
        return self._model[1]

    def current_assistant(self) -> AssistantMessage | None:
        """The running turn's latest assistant message, if it has one."""
        for message in reversed(self.messages[self.turn_start :]):
            if isinstance(message, AssistantMessage):
                return message
        return None

    def notice(self, block: NoticeBlock) -> None:
        """Show the user a line on the current assistant message (a new one if there is none)."""
        message = self.current_assistant()
        if message is None:
            self.append(AssistantMessage(blocks=[block]))
        else:
            message.blocks.append(block)
            self.changed(message)

    def save(self, *, durable: bool = False) -> None:
        """Have the transcript written if it changed; `durable`: and make sure a crash cannot undo
        it. Returns at once: `flush` waits for the write."""
        data = None
        if self._dirty:
            data = transcript.encode(self._describe(self.messages))
            self._dirty = False
            self._durable = durable
        elif durable and not self._durable:
            self._durable = True
        else:
            return
        with self._lock:
            if data is not None:
                self._unwritten = data
            self._unsynced |= durable
            queued, self._queued = self._queued, True
        if not queued:
            self._lane.submit(self._write)

    async def flush(self, *, durable: bool = False) -> None:
        """`save`, then wait until the file is written (and `durable`: made durable)."""
        self.save(durable=durable)
        await self._lane.settled()

    def _write(self) -> None:
        """On the disk thread: the newest snapshot, and the fsync owed."""
        with self._lock:
            data, durable = self._unwritten, self._unsynced
            self._unwritten, self._unsynced, self._queued = None, False, False
        if data is not None:
            transcript.write(self.path, data, durable=durable)
        elif durable:
            transcript.make_durable(self.path)
