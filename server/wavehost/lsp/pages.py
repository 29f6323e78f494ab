"""Which pages show which chat sessions: the one routing rule, decided here for every shell.

A shell shows many pages (browser tabs, IDE views) over one connection. It names the page each
request comes from (`params.pageId`, `table.PAGE_ID`); the server decides which pages a message
it sends is for and names them (`params.pageIds`); the shell only delivers. The rule is the
table's session roles:

- a request that `opens` a session attaches its page to `params.sessionId` from the request on
  (updates that come before the answer are replaced by its snapshot) and to the answer's
  `sessionId`; one that `closes` it detaches every page from it;
- a `scoped` notification goes only to the pages attached to its session (to none: not sent);
  one that is not about a session goes to every page (no `pageIds`);
- a `scoped` request (a permission question) is asked of each attached page under its own id;
  the first answer is the answer and the others are withdrawn (`$/cancelRequest`), as they all
  are when the asker gives up (the turn was cancelled). With no page attached, or when every page
  failed to answer (a page closed mid-question), it fails: the question stays in the session,
  where a page that attaches later finds it.

A client that names no page (an LSP client with a single view, the tests' client) is one page
itself, `CLIENT`: what goes to it alone carries no `pageIds`. `wave/page/closed` (from the shell)
detaches a page that is gone. Imported at start-up: only the
table and lsprotocol, no pydantic.
"""

import asyncio
import contextvars
import logging
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from typing import Any, Protocol

from lsprotocol.types import CancelParams

from wavehost.protocol import table

log = logging.getLogger(__name__)

CLIENT = ""  # the page of a client that names none
_ASKER: contextvars.ContextVar[str | None] = contextvars.ContextVar("page", default=None)


class Sender(Protocol):
    """What of the LSP connection routing needs (pygls' protocol)."""

    def notify(self, method: str, params: Any = None) -> None: ...

    def send_request(
        self, method: str, params: Any = None, callback: Any = None, msg_id: Any = None
    ) -> "Future[Any]": ...


class NoPageError(Exception):
    """No page can answer: none is attached to the session, or every one asked failed."""


def asking_page() -> str | None:
    """The page whose request is being handled (in its handler's task), if a shell named one."""
    return _ASKER.get()


def _to(pages: list[str], params: dict[str, Any]) -> dict[str, Any]:
    """The params of a message for these pages (the client itself needs no naming)."""
    return params if pages == [CLIENT] else {**params, table.PAGE_IDS: pages}


def _session_of(params: Any) -> str | None:
    value = params.get("sessionId") if isinstance(params, dict) else None
    return value if isinstance(value, str) else None


class Pages:
    def __init__(self, sender: "Sender | None" = None) -> None:
        self._sender = sender
        self._attached: dict[str, list[str]] = {}  # session id → page ids, oldest first

    def connect(self, sender: Sender) -> None:
        self._sender = sender

    @property
    def sender(self) -> Sender:
        if self._sender is None:
            raise RuntimeError("the pages are routed over a connection: connect() it first")
        return self._sender

    def attached(self, session_id: str | None) -> list[str]:
        return list(self._attached.get(session_id, ())) if session_id is not None else []

    # -- what pages send ----------------------------------------------------------------------

    @contextmanager
    def serving(self, method: table.Method, params: Any) -> Iterator[tuple[Any, "_Answer"]]:
        """Handle one request of a page: its params without the page id, and where its answer
        goes (so that `opens` / `closes` attach and detach by it)."""
        page = CLIENT
        if isinstance(params, dict) and table.PAGE_ID in params:
            params = dict(params)
            named = params.pop(table.PAGE_ID)
            page = named if isinstance(named, str) and named else CLIENT
        session = _session_of(params)
        newly = False
        if method.session == "opens" and session is not None:
            newly = self._attach(page, session)
        answer = _Answer()
        token = _ASKER.set(page)
        try:
            yield params, answer
        except BaseException:
            if newly and session is not None:
                self._detach(page, session)  # it did not open: it shows no such session
            raise
        finally:
            _ASKER.reset(token)
        if method.session == "opens":
            opened = _session_of(answer.result)
            if opened is not None:
                self._attach(page, opened)
        elif method.session == "closes" and session is not None:
            self._attached.pop(session, None)

    def closed(self, page: str) -> None:
        """The page is gone: it is attached to nothing any more."""
        for session in list(self._attached):
            self._detach(page, session)

    def _attach(self, page: str, session: str) -> bool:
        pages = self._attached.setdefault(session, [])
        if page in pages:
            return False
        pages.append(page)
        return True

    def _detach(self, page: str, session: str) -> None:
        pages = self._attached.get(session)
        if pages is not None and page in pages:
            pages.remove(page)
            if not pages:
                del self._attached[session]

    # -- what the server sends ----------------------------------------------------------------

    def notify(self, method: table.Method, params: dict[str, Any]) -> None:
        if method.session is None:
            self.sender.notify(method.name, params)
            return
        pages = self.attached(_session_of(params))
        if pages:
            self.sender.notify(method.name, _to(pages, params))

    def to_asker(self, params: dict[str, Any]) -> dict[str, Any]:
        """The params of a standard server→client request for the page being served (the file
        `window/showDocument` shows goes to the page whose wave/openConfigFile asked for it)."""
        page = asking_page()
        return _to([page], params) if page is not None else params

    async def ask(self, method: table.Method, params: dict[str, Any], request_id: str) -> Any:
        """Ask every page attached to the question's session; the first answer is the answer.
        Cancelling the caller withdraws the question from every page still asked."""
        pages = self.attached(_session_of(params))
        if not pages:
            raise NoPageError("no page of this session is open to answer")
        sender = self.sender
        asked: dict[str, asyncio.Future[Any]] = {}
        for page in pages:
            msg_id = f"{request_id}@{page}"
            to_page = _to([page], params)
            asked[msg_id] = asyncio.wrap_future(
                sender.send_request(method.name, to_page, None, msg_id)
            )
        failure: BaseException | None = None
        waiting = set(asked.values())
        try:
            while waiting:
                # asyncio.wait never cancels what it waits for: a cancelled future would break
                # pygls when the late answer comes in
                done, waiting = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                for future in done:
                    if future.exception() is None:
                        return future.result()
                    failure = future.exception()
                    log.debug("a page could not answer %s: %s", method.name, failure)
            raise NoPageError(f"no page of this session answered: {failure}") from failure
        finally:
            for msg_id, future in asked.items():
                if not future.done():
                    sender.notify(table.CANCEL_REQUEST.name, CancelParams(id=msg_id))
                    future.add_done_callback(_drop_late_answer)


class _Answer:
    """A request's answer, once its handler returned it."""

    result: Any = None


def _drop_late_answer(future: "asyncio.Future[Any]") -> None:
    if not future.cancelled() and future.exception() is not None:
        log.debug("withdrawn question: %s", future.exception())
