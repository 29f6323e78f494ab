"""What a session has to do next, in order: prompts (with their texts, for whoever attaches
later), compactions, and wake-ups for news.

News is text for the model that arrives while the session runs (isMeta messages: asyncRewake hook
output, finished background tasks). It waits for the model's next call in the running turn, or
wakes the session with a turn of its own when none runs. News never counts as the user speaking.

Background work reports here, not to the session: the inbox exists before the session's
collaborators do, so they can be handed to the session's constructor whole.

Stop holds the queue: the prompts waiting when the user stopped a turn stay queued, and none of
them starts by itself (the user did not want the session to go on). The user sends them
(`release`, or any new message of theirs, which joins the end of the queue) or removes them one by
one (`remove`, by id); the hold ends with the last of them. News and compactions are not held.
"""

import logging
from collections import deque
from dataclasses import dataclass, field
from typing import Literal

import anyio

from wavehost.hooks.engine import Rewake
from wavehost.session.background import BackgroundTask
from wavehost.session.messages import new_id

log = logging.getLogger(__name__)

ItemKind = Literal["prompt", "wake", "compact"]


@dataclass(slots=True)
class Item:
    kind: ItemKind
    text: str = ""
    done: anyio.Event | None = None  # set when a `compact` item has run
    ok: bool = False
    id: str = field(default_factory=new_id)  # a queued prompt's, for removing it


class Inbox:
    def __init__(self, session_id: str) -> None:
        self.session_id = session_id
        self._queue: deque[Item] = deque()  # what waits, in order
        self._arrived = anyio.Event()  # something was put (or the inbox shut): look again
        self._shut = False
        self.news: list[str] = []  # texts waiting for the model's next call
        self.closed = False  # the session is ending: nothing new is taken
        self.held = False  # Stop held the queued prompts: none starts until the user says so
        self.turn_running = False
        self._idle = anyio.Event()
        self._idle.set()

    def close(self) -> None:
        self._shut = True
        self._arrived.set()

    @property
    def prompts(self) -> tuple[Item, ...]:
        """The user prompts waiting, oldest first."""
        return tuple(item for item in self._queue if item.kind == "prompt")

    @property
    def user_waiting(self) -> bool:
        """A prompt of the user's goes next (a held one waits for the user, not for the turn)."""
        return not self.held and any(item.kind == "prompt" for item in self._queue)

    # -- putting things in ------------------------------------------------------------------

    def put(self, item: Item) -> None:
        if self.closed:
            raise RuntimeError("the session is closed")
        self._queue.append(item)
        self._wake()

    def _wake(self) -> None:
        if self._runnable() is not None and self._idle.is_set():
            self._idle = anyio.Event()
        self._arrived.set()

    def hold(self) -> None:
        """Stop: the prompts waiting now (and any queued after them) wait for the user."""
        self.held = bool(self.prompts)

    def release(self) -> bool:
        """The user continues: the held prompts run, in order. False: none was held."""
        held, self.held = self.held, False
        if held:
            self._wake()
        return held

    def remove(self, item_id: str) -> bool:
        """Take a queued prompt out of the queue; False if none waits with this id (any more)."""
        for item in self._queue:
            if item.kind == "prompt" and item.id == item_id:
                self._queue.remove(item)
                if not self.prompts:
                    self.held = False
                return True
        return False

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

    def _runnable(self) -> Item | None:
        """The first item that may start now: held prompts wait, what comes after them need not."""
        for item in self._queue:
            if not (self.held and item.kind == "prompt"):
                return item
        return None

    async def take(self) -> Item | None:
        """The next item to run, once there is one (one session worker takes them); None once
        the inbox is shut."""
        while not self._shut:
            item = self._runnable()
            if item is not None:
                self._queue.remove(item)
                return item
            self._arrived = anyio.Event()
            await self._arrived.wait()
        return None

    def take_news(self) -> list[str]:
        news, self.news = self.news, []
        return news

    def settled(self) -> bool:
        """Nothing is waiting: the session is idle now (True), or has more to do (False). Held
        prompts wait for the user, so a session holding them is idle."""
        if self.news and not self.closed:
            self.put(Item("wake"))  # news that came as the turn ended
        if self._runnable() is not None:
            return False
        self._idle.set()
        return True

    @property
    def idle(self) -> bool:
        return self._idle.is_set()

    async def wait_idle(self) -> None:
        await self._idle.wait()
