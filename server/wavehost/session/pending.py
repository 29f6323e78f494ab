"""A question the session waits on (a permission question, the model's AskUserQuestion, a hook's
prompt action): session state until answered.

It is asked through the client (`relay`), and any page attached to the session may answer it
meanwhile — a page re-created after the first one went away (a hidden panel shown again, a
browser reload) gets it in the snapshot. The first answer wins; a relay that fails leaves the
question open for the others.
"""

import logging
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

import anyio

log = logging.getLogger(__name__)

P = TypeVar("P")
A = TypeVar("A")


class Pending(Generic[P, A]):
    def __init__(self, prompt: P) -> None:
        self.prompt = prompt
        self._answers: list[A] = []  # the one answer, once given (A itself may be None)
        self._answered = anyio.Event()

    def resolve(self, answer: A) -> bool:
        """Give the answer; False if it was answered already."""
        if self._answered.is_set():
            return False
        self._answers.append(answer)
        self._answered.set()
        return True

    async def ask(self, relay: Callable[[P], Awaitable[A]], what: str) -> A:
        """The answer: the relay's, or whoever resolves it first (the relay is withdrawn then)."""
        async with anyio.create_task_group() as group:
            group.start_soon(self._relay, relay, what)
            await self._answered.wait()
            group.cancel_scope.cancel()  # the client's copy of the question is withdrawn
        return self._answers[0]

    async def _relay(self, relay: Callable[[P], Awaitable[A]], what: str) -> None:
        try:
            answer = await relay(self.prompt)
        except Exception as err:  # no client answer: any page attached may still answer it
            log.warning("%s: the client did not answer (%s); the question stays open", what, err)
            return
        self.resolve(answer)
