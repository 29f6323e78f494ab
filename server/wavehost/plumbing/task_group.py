"""A task group owned for the lifetime of an `async with`: the one shape of "background work that
ends with its owner" (background hooks, background tasks, a session's own tasks)."""

from collections.abc import Callable, Coroutine
from types import TracebackType
from typing import Any, Self

import anyio
from anyio.abc import TaskGroup


class OwnedTaskGroup:
    """`async with` it to open the group; leaving waits for (or, on error, cancels) its tasks.
    Subclasses add what happens before the group closes (`closing`)."""

    def __init__(self) -> None:
        self._group: TaskGroup | None = None

    @property
    def group(self) -> TaskGroup:
        if self._group is None:
            raise RuntimeError(f"{type(self).__name__} must be entered (async with) before use")
        return self._group

    def start_soon(self, func: Callable[..., Coroutine[Any, Any, Any]], *args: Any) -> None:
        self.group.start_soon(func, *args)

    def cancel(self) -> None:
        """Cancel every task of the group (they end as the `async with` does)."""
        self.group.cancel_scope.cancel()

    def closing(self) -> None:
        """Called as the `async with` block ends, before waiting for the tasks."""

    def closed(self) -> None:
        """Called once every task has ended (also after an error)."""

    async def __aenter__(self) -> Self:
        group = anyio.create_task_group()
        await group.__aenter__()
        self._group = group
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        group = self.group
        self.closing()
        try:
            return await group.__aexit__(exc_type, exc, tb)
        finally:
            self._group = None
            self.closed()
