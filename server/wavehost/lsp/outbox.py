"""One session's `wave/chat/updated` notifications: only what changed since the last one.

Updates that come within one pass of the event loop go out together, and changes of messages
at most every `INTERVAL` (a streamed reply's text comes in pieces far smaller and far more often
than a page can show them); a change of the session's state (running or idle, its queue, its
hooks, its questions) goes out at once, with what is pending. A message is looked at
when the notification is sent, in its latest form, against what its pages already have (kept
here, as sent): streamed text goes as the text added (`text`), a changed or new block of an
assistant message as that block (`block`), a new message (or one that changed otherwise) whole
(`put`). The session's state fields (status, queue, running hooks, questions) are sent when they
changed, else null. So a reply of N bytes costs about N bytes on the wire however it streams,
plus a constant per notification; the snapshot `wave/chat/open` answers is the whole session,
and every update after it is relative to it (the outbox is flushed right before a snapshot).
"""

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wavehost.hooks.live import LiveView
from wavehost.protocol.chat import (
    BlockPut,
    ChatAskQuestionParams,
    ChatRequestPermissionParams,
    ChatUpdatedParams,
    LiveHooks,
    MessagePut,
    MessageRemove,
    QueuedMessage,
    TextAppend,
)
from wavehost.session.messages import AssistantMessage, TextBlock, UserMessage
from wavehost.session.permissions import PermissionPrompt
from wavehost.session.tools.ask import QuestionPrompt
from wavehost.session.updates import (
    HooksLive,
    HooksRunning,
    MessageChanged,
    MessageRemoved,
    QuestionsChanged,
    Queued,
    SessionStatus,
    SessionUpdate,
    StatusChanged,
)

Wire = dict[str, Any]
INTERVAL = 0.02  # seconds: about a frame


@dataclass
class _Sent:
    """What the pages have of one message: its id, and its blocks as sent (a text block's text,
    any other block's wire form); a user message whole."""

    id: str
    blocks: list[str | Wire] | None  # None: a user message
    whole: Wire | None = None

    @classmethod
    def of(cls, wire: Wire) -> "_Sent":
        if wire["role"] != "assistant":
            return cls(wire["id"], None, wire)
        return cls(wire["id"], [_block_as_sent(b) for b in wire["blocks"]])


def _block_as_sent(wire: Wire) -> str | Wire:
    return str(wire["text"]) if wire["type"] == "text" else wire


@dataclass
class Outbox:
    notify: Callable[[Wire], None]
    session_id: str | None = None
    status: SessionStatus = "idle"
    queued: tuple[Queued, ...] = ()
    held: bool = False
    running_hooks: tuple[str, ...] = ()
    live_hooks: tuple[tuple[LiveView, ...], int] = ((), 0)
    questions: tuple[PermissionPrompt, ...] = ()
    asked: tuple[QuestionPrompt, ...] = ()
    _sent: list[_Sent | None] = field(default_factory=list)  # by message index
    _changes: list[MessageChanged | MessageRemoved] = field(default_factory=list)
    _dirty: set[str] = field(default_factory=set)  # state fields changed since the last update
    _scheduled: asyncio.Handle | None = None
    _soon: bool = False  # what is scheduled goes out in the next pass of the loop
    _last: float = -INTERVAL  # when the last notification went out (the loop's clock)

    def __call__(self, update: SessionUpdate) -> None:
        self.session_id = update.session_id
        if isinstance(update, MessageChanged | MessageRemoved):
            self._changes.append(update)
        elif isinstance(update, StatusChanged):
            self.status, self.queued, self.held = update.status, update.queued, update.held
            self._dirty |= {"status", "queue"}
        elif isinstance(update, HooksRunning):
            self.running_hooks = update.status_messages
            self._dirty.add("hooks")
        elif isinstance(update, HooksLive):  # throttled where it comes from (`hooks.live`)
            self.live_hooks = (update.hooks, update.more)
            self._dirty.add("live")
        elif isinstance(update, QuestionsChanged):
            self.questions, self.asked = update.questions, update.asked
            self._dirty.add("questions")
        if self._scheduled is not None and (self._soon or not self._dirty):
            return  # it goes out with what is scheduled already
        loop = asyncio.get_running_loop()
        wait = 0.0 if self._dirty else self._last + INTERVAL - loop.time()
        if self._scheduled is not None:
            self._scheduled.cancel()  # the state changed: it goes out now, not after the interval
        self._soon = wait <= 0
        if self._soon:
            self._scheduled = loop.call_soon(self.flush)
        else:
            self._scheduled = loop.call_later(wait, self.flush)

    def flush(self) -> None:
        """Send what changed, if anything, now."""
        if self._scheduled is None or self.session_id is None:
            return
        self._scheduled.cancel()
        self._scheduled = None
        self._last = asyncio.get_running_loop().time()
        deltas = self._deltas()
        dirty, self._dirty = self._dirty, set()
        if not deltas and not dirty:
            return
        params = ChatUpdatedParams(
            session_id=self.session_id,
            deltas=[],
            status=self.status if "status" in dirty else None,
            queued=len(self.queued) if "queue" in dirty else None,
            queued_texts=[q.text for q in self.queued] if "queue" in dirty else None,
            queued_messages=[QueuedMessage(id=q.id, text=q.text) for q in self.queued]
            if "queue" in dirty
            else None,
            queue_held=self.held if "queue" in dirty else None,
            running_hooks=list(self.running_hooks) if "hooks" in dirty else None,
            live_hooks=LiveHooks.of(self.live_hooks) if "live" in dirty else None,
            pending_permissions=[ChatRequestPermissionParams.of(q) for q in self.questions]
            if "questions" in dirty
            else None,
            pending_questions=[ChatAskQuestionParams.of(q) for q in self.asked]
            if "questions" in dirty
            else None,
        ).to_wire()
        params["deltas"] = deltas  # each serialised once, as it was compared
        self.notify(params)

    def _deltas(self) -> list[Wire]:
        changes, self._changes = self._changes, []
        deltas: list[Wire] = []
        looked: set[str] = set()  # messages diffed in this flush: their latest form was sent
        for change in changes:
            if isinstance(change, MessageRemoved):
                if change.index < len(self._sent):
                    del self._sent[change.index]
                looked.discard(change.message_id)
                deltas.append(
                    MessageRemove(index=change.index, message_id=change.message_id).to_wire()
                )
            elif change.message.id not in looked:
                looked.add(change.message.id)
                deltas += self._changed(change.index, change.message)
        return deltas

    def _changed(self, index: int, message: UserMessage | AssistantMessage) -> list[Wire]:
        # A message not looked at before (one of a resumed session's) goes whole, once.
        while len(self._sent) < index:
            self._sent.append(None)
        sent = self._sent[index] if index < len(self._sent) else None
        if not isinstance(message, AssistantMessage) or sent is None or sent.id != message.id:
            return self._put(index, message, sent)
        assert sent.blocks is not None
        if len(message.blocks) < len(sent.blocks):
            return self._put(index, message, sent)
        deltas = []
        for number, block in enumerate(message.blocks):
            had = sent.blocks[number] if number < len(sent.blocks) else None
            if isinstance(block, TextBlock) and isinstance(had, str):
                if block.text is had or block.text == had:
                    continue
                if block.text.startswith(had):  # streamed on: only what came
                    added = block.text[len(had) :]
                    deltas.append(TextAppend(index=index, block=number, text=added).to_wire())
                    sent.blocks[number] = block.text
                    continue
            delta = BlockPut(index=index, block=number, value=block).to_wire()
            wire = delta["value"]
            if wire == had:
                continue
            deltas.append(delta)
            if number < len(sent.blocks):
                sent.blocks[number] = _block_as_sent(wire)
            else:
                sent.blocks.append(_block_as_sent(wire))
        return deltas

    def _put(
        self, index: int, message: UserMessage | AssistantMessage, sent: _Sent | None
    ) -> list[Wire]:
        delta = MessagePut(index=index, message=message).to_wire()
        if sent is not None and sent.id == message.id and sent.whole == delta["message"]:
            return []  # a user message the pages have as it is
        entry = _Sent.of(delta["message"])
        if index < len(self._sent):
            self._sent[index] = entry
        else:
            self._sent.append(entry)
        return [delta]
