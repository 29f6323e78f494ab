"""What a session has to do next, in order: prompts (with their texts, for whoever attaches
later), compactions, and wake-ups for news.

News is text for the model that arrives while the session runs (isMeta messages: asyncRewake hook
output, finished background tasks). It waits for the model's next call in the running turn, or
wakes the session with a turn of its own when none runs. News never counts as the user speaking.

Background work reports here, not to the session: the inbox exists before the session's
collaborators do, so they can be handed to the session's constructor whole.
"""

import logging
import math
from dataclasses import dataclass
from typing import Literal

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream

from wavehost.hooks.engine import Rewake
from wavehost.session.background import BackgroundTask

log = logging.getLogger(__name__)

ItemKind = Literal["prompt", "wake", "compact"]


@dataclass(slots=True)
class Item:
    kind: ItemKind
    text: str = ""
    done: anyio.Event | None = None  # set when a `compact` item has run
    ok: bool = False


class Inbox:
    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self._in, self._out = anyio.create_memory_object_stream[Item](math.inf)
        self.prompts: list[str] = []  # texts of the user prompts waiting, oldest first
        self.news: list[str] = []  # texts waiting for the model's next call
        self.closed = False  # the session is ending: nothing new is taken
        self.turn_running = False
        self._idle = anyio.Event()
        self._idle.set()

    def close(self) -> None:
        self._in.close()
        self._out.close()

    # -- putting things in ------------------------------------------------------------------

    def put(self, item: Item) -> None:
        if self.closed:
            raise RuntimeError("the session is closed")
        if item.kind == "prompt":
            self.prompts.append(item.text)
        if self._idle.is_set():
            self._idle = anyio.Event()
        self._in.send_nowait(item)

    def notify(self, text: str, origin: str) -> None:
        """News for the model: the next model call of the running turn, or a turn of its own."""
        if self.closed:
            log.info("session %s is closed; dropped the news from %s", self.session_id, origin)
            return
        self.news.append(text)
        if not self.turn_running:
            self.put(Item("wake"))

    def task_done(self, task: BackgroundTask) -> None:
        self.notify(task.notification(), task.id)

    def rewake(self, rewake: Rewake) -> None:
        """An asyncRewake hook exited 2: its text wakes the model of the session that ran it."""
        if rewake.session_id != self.session_id:  # never another session's news
            log.warning(
                "dropped a wake-up for session %s in %s", rewake.session_id, self.session_id
            )
            return
        self.notify(rewake.reminder, rewake.command)

    # -- taking things out ------------------------------------------------------------------

    @property
    def items(self) -> MemoryObjectReceiveStream[Item]:
        """The items in order (iterate it: one session worker takes them)."""
        return self._out

    def took(self, item: Item) -> None:
        """The session started on `item`."""
        if item.kind == "prompt":
            self.prompts.pop(0)

    def take_news(self) -> list[str]:
        news, self.news = self.news, []
        return news

    def settled(self) -> bool:
        """Nothing is waiting: the session is idle now (True), or has more to do (False)."""
        if self.news and not self.closed:
            self.put(Item("wake"))  # news that came as the turn ended
        if self._out.statistics().current_buffer_used:
            return False
        self._idle.set()
        return True

    @property
    def idle(self) -> bool:
        return self._idle.is_set()

    async def wait_idle(self) -> None:
        await self._idle.wait()
