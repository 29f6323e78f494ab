"""A session's messages: every change goes through here, is reported, and reaches the transcript.

Structural changes (a message added or removed, a tool's status, a notice) rewrite the transcript
at once; streamed text only marks it dirty and is written at the end of the stream or before the
next hook runs, so a hook reading `transcript_path` always sees the conversation so far. Those
saves are atomic but leave the rename's durability (a directory fsync, about a millisecond, five
times a tool call) to the end of the turn, the start of the session and its end (`durable`).
"""

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from wavehost.plumbing.atomic import fsync_directory
from wavehost.session import transcript
from wavehost.session.messages import AssistantMessage, NoticeBlock, UserMessage
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
        self._durable = True  # the last save's rename is durable

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
        if self._listener is not None:
            self._listener(MessageRemoved(self.session_id, index, message.id))
        self.save()

    def changed(self, message: AnyMessage, *, persist: bool = True) -> None:
        self._dirty = True
        if self._listener is not None:
            self._listener(MessageChanged(self.session_id, self._index(message), message))
        if persist:
            self.save()

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
        """Write the transcript if it changed; `durable`: and make sure a crash cannot undo it."""
        if self._dirty:
            transcript.save(self.path, self._describe(self.messages), durable=durable)
            self._dirty = False
            self._durable = durable
        elif durable and not self._durable:
            fsync_directory(self.path.parent)
            self._durable = True
