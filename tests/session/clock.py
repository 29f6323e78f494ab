"""A clock the test moves by hand, so cron schedules fire without waiting for real minutes."""

from datetime import datetime

import anyio


class ManualClock:
    def __init__(self, start: datetime) -> None:
        self._now = start
        self._moved = anyio.Event()
        self.sleepers = 0  # schedulers waiting on this clock now

    def now(self) -> datetime:
        return self._now

    async def sleep_until(self, when: datetime) -> None:
        self.sleepers += 1
        try:
            while self._now < when:
                await self._moved.wait()
        finally:
            self.sleepers -= 1

    def advance_to(self, when: datetime) -> None:
        self._now = when
        self._moved.set()
        self._moved = anyio.Event()
