"""Session crons: prompts the model scheduled for itself (CronCreate), fired by a 5-field cron.

They live as long as the session: nothing is written to disk. A due prompt goes to the session
like a typed one (a new turn when idle, queued behind the running turn when busy); a one-shot job
is gone once it fired, a recurring one is rescheduled from the moment it fired (runs missed while
the machine slept are not replayed). Time comes from a `Clock` so the schedule can be driven
without waiting for wall-clock minutes.
"""

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

import anyio
from cronsim import CronSim, CronSimError

from wavehost.hooks import payloads as p

log = logging.getLogger(__name__)


class Clock(Protocol):
    def now(self) -> datetime: ...

    async def sleep_until(self, when: datetime) -> None: ...


class SystemClock:
    """Local wall-clock time: cron expressions are read in the user's time zone, as in cron."""

    def now(self) -> datetime:
        return datetime.now()

    async def sleep_until(self, when: datetime) -> None:
        await anyio.sleep(max(0.0, (when - self.now()).total_seconds()))


class CronError(ValueError):
    """A schedule that is not a valid 5-field cron expression; the message says why."""


def next_run(schedule: str, after: datetime) -> datetime:
    fields = schedule.split()
    if len(fields) != 5:
        raise CronError(
            f"Invalid cron expression {schedule!r}: expected 5 fields "
            "(minute hour day-of-month month day-of-week)"
        )
    try:
        return next(CronSim(" ".join(fields), after))
    except (CronSimError, StopIteration) as err:
        raise CronError(f"Invalid cron expression {schedule!r}: {err or 'never fires'}") from None


@dataclass
class CronJob:
    id: str
    schedule: str
    prompt: str
    recurring: bool
    next_run: datetime

    def payload(self) -> p.SessionCron:
        return p.SessionCron(
            id=self.id, schedule=self.schedule, recurring=self.recurring, prompt=self.prompt
        )


class SessionCrons:
    def __init__(self, deliver: Callable[[CronJob], None], clock: Clock | None = None) -> None:
        self.clock = clock or SystemClock()
        self._deliver = deliver
        self._jobs: dict[str, CronJob] = {}
        self._changed = anyio.Event()

    def create(self, schedule: str, prompt: str, recurring: bool) -> CronJob:
        job = CronJob(
            uuid.uuid4().hex[:8],
            " ".join(schedule.split()),
            prompt,
            recurring,
            next_run(schedule, self.clock.now()),
        )
        self._jobs[job.id] = job
        self._changed.set()
        return job

    def delete(self, job_id: str) -> CronJob | None:
        job = self._jobs.pop(job_id, None)
        self._changed.set()
        return job

    def jobs(self) -> list[CronJob]:
        return list(self._jobs.values())

    def snapshot(self) -> list[p.SessionCron]:
        """Stop's `session_crons`."""
        return [job.payload() for job in self._jobs.values()]

    async def run(self) -> None:
        """The scheduler: sleeps until the next job is due (or the jobs change), fires it."""
        while True:
            self._changed = anyio.Event()
            due = min((job.next_run for job in self._jobs.values()), default=None)
            async with anyio.create_task_group() as group:

                async def woken(event: anyio.Event = self._changed) -> None:
                    await event.wait()
                    group.cancel_scope.cancel()

                group.start_soon(woken)
                if due is not None:
                    await self.clock.sleep_until(due)
                    group.cancel_scope.cancel()
            self._fire_due()

    def _fire_due(self) -> None:
        now = self.clock.now()
        for job in [j for j in self._jobs.values() if j.next_run <= now]:
            if job.recurring:
                job.next_run = next_run(job.schedule, now)
            else:
                del self._jobs[job.id]
            log.info("cron job %s (%s) fired", job.id, job.schedule)
            self._deliver(job)
