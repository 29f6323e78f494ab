"""The providers' one HTTP call: a streamed POST, retried as the official SDKs retry it, read as
server-sent events.

The providers speak their APIs over `aiohttp` themselves rather than through the official
`anthropic` / `openai` SDKs: importing the Anthropic SDK costs about 1 s of CPU (3,100 modules,
1,500 pydantic models, also when only its client and messages modules are imported) and the OpenAI
one about 0.6 s, where Claude Code's whole `claude -p` turn takes 0.5 s. `aiohttp` (its parser is
C) reads a reply for about a third of the CPU the SDKs' `httpx` stack takes, which counts on every
model call of every session a server runs. What the SDKs did for us is here: the retry policy (2
retries on connection errors, 408, 409, 429 and 5xx; `x-should-retry` obeyed; `retry-after-ms` /
`retry-after` honoured up to a minute, else 0.5 s doubling up to 8 s, less up to a quarter of
jitter), their timeouts (5 s to connect, 10 minutes per read), the proxy the environment names
(`HTTPS_PROXY`, `NO_PROXY`, …; looked up once, not on every call as aiohttp's `trust_env` does, in
a thread), and one readable error per failure.

A provider's `Connection` keeps its connections alive between calls; `aclose()` ends them.
"""

import email.utils
import json
import logging
import random
import time
import urllib.parse
import urllib.request
from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import aiohttp
import anyio
import pydantic_core

from wavehost import __version__
from wavehost.session.providers.base import ProviderError

MAX_RETRIES = 2
INITIAL_DELAY, MAX_DELAY, MAX_RETRY_AFTER = 0.5, 8.0, 60.0
TIMEOUT = aiohttp.ClientTimeout(total=None, connect=5.0, sock_read=600.0)
RETRY_STATUSES = frozenset({408, 409, 429})
ERROR_BODY_CAP = 64 * 1024  # what an error answer may make us read
EVENT_CAP = 1024 * 1024  # bytes one server-sent event may take
USER_AGENT = f"wavehost/{__version__}"
# What a connection that failed before an answer came raises: retried, then reported.
UNREACHED = (aiohttp.ClientConnectionError, TimeoutError)

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Event:
    """One server-sent event."""

    event: str
    data: str


class Connection:
    """One provider's HTTP client for its one URL, made on its first call (inside the event loop
    that uses it)."""

    def __init__(
        self, provider: str, url: str, unreachable: Callable[[BaseException], ProviderError]
    ) -> None:
        self.provider = provider
        self.url = url
        self._unreachable = unreachable  # what to say when no answer came
        self._proxy = proxy_for(url)
        self._session: aiohttp.ClientSession | None = None

    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                timeout=TIMEOUT, headers={"user-agent": USER_AGENT}
            )
        return self._session

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    async def events(self, headers: Mapping[str, str], body: Any) -> AsyncGenerator[Event, None]:
        """POST `body` as JSON to `url` and yield the answer's events. Failures, whatever they
        are, raise `ProviderError` naming the provider. A stream that broke after its first event
        is not retried: what it said has been handed over."""
        response = await self._send(headers, body)
        try:
            kind = response.headers.get("content-type", "").partition(";")[0].strip().lower()
            if kind != "text/event-stream":
                raise ProviderError(
                    f"{self.provider}: expected an event stream (text/event-stream), got {kind!r}"
                )
            async for event in _events(response.content, self.provider):
                yield event
        except (aiohttp.ClientError, TimeoutError) as err:
            raise ProviderError(f"{self.provider}: the answer broke off: {_failure(err)}") from err
        finally:
            response.release()  # back to the pool when read to its end, else closed

    async def _send(self, headers: Mapping[str, str], body: Any) -> aiohttp.ClientResponse:
        content = pydantic_core.to_json(body)  # the whole conversation, each call: 3× json.dumps
        headers = {**headers, "content-type": "application/json", "accept": "text/event-stream"}
        for attempt in range(MAX_RETRIES + 1):
            retries_left = attempt < MAX_RETRIES
            try:
                response = await self.session().post(
                    self.url, data=content, headers=headers, proxy=self._proxy
                )
            except UNREACHED as err:
                if not retries_left:
                    raise self._unreachable(err) from err
                delay = _backoff(attempt)
                log.info("%s: %s; retrying in %.1f s", self.provider, _failure(err), delay)
            except aiohttp.ClientError as err:  # a bad URL, a proxy that refused, …
                raise ProviderError(f"{self.provider}: {_failure(err)}") from err
            else:
                if response.status < 400:
                    return response
                text = await _error_answer(response)
                if not (retries_left and _should_retry(response)):
                    raise ProviderError(f"{self.provider}: HTTP {response.status}: {text}")
                delay = _retry_after(response.headers) or _backoff(attempt)
                log.info("%s: HTTP %s; retrying in %.1f s", self.provider, response.status, delay)
            await anyio.sleep(delay)
        raise AssertionError("unreachable: the last attempt returns or raises")


def proxy_for(url: str) -> str | None:
    """The proxy the environment names for `url` (`HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY`,
    unless `NO_PROXY` excludes its host)."""
    parts = urllib.parse.urlsplit(url)
    if urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    proxies = urllib.request.getproxies()
    return proxies.get(parts.scheme) or proxies.get("all")


def event_data(provider: str, event: Event) -> dict[str, Any]:
    """An event's JSON object."""
    try:
        data = json.loads(event.data)
    except json.JSONDecodeError as err:
        raise ProviderError(f"{provider}: the server sent an event that is not JSON") from err
    if not isinstance(data, dict):
        raise ProviderError(f"{provider}: the server sent an event that is not a JSON object")
    return data


def as_string(value: Any) -> str:
    """A field the API sends as a string; anything else is a malformed event (TypeError)."""
    if not isinstance(value, str):
        raise TypeError(f"expected a string, not {type(value).__name__}")
    return value


def error_text(document: Any) -> str:
    """`error.type: error.message` of an API error document (both APIs use that shape)."""
    error = document.get("error") if isinstance(document, dict) else None
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        kind = error.get("type")
        return f"{kind}: {error['message']}" if isinstance(kind, str) and kind else error["message"]
    return json.dumps(document, ensure_ascii=False)[:500]


async def _events(stream: aiohttp.StreamReader, provider: str) -> AsyncGenerator[Event, None]:
    """Server-sent events as the spec reads them: `event:` and `data:` fields (several `data`
    lines joined by newlines), comments and other fields skipped, an event dispatched at its
    blank line (and the last one at the end of the stream); lines end in LF, CRLF or CR. An event
    over `EVENT_CAP` bytes is an error: a server that never ends one cannot fill our memory."""
    kind, data, size, pending = "", list[str](), 0, b""

    def lines(text: bytes) -> list[bytes]:
        return text.replace(b"\r\n", b"\n").replace(b"\r", b"\n").split(b"\n")

    while chunk := await stream.readany():
        pending += chunk
        split_crlf = pending.endswith(b"\r")  # its LF may come with the next chunk
        complete = lines(pending[:-1] if split_crlf else pending)
        pending = complete.pop() + (b"\r" if split_crlf else b"")
        for raw in complete:
            if not raw:
                if data:
                    yield Event(kind or "message", "\n".join(data))
                kind, data, size = "", [], 0
                continue
            size += len(raw)
            name, _, value = raw.decode("utf-8", "replace").partition(":")
            value = value.removeprefix(" ")
            if name == "event":
                kind = value
            elif name == "data":
                data.append(value)
        if size + len(pending) > EVENT_CAP:
            raise ProviderError(f"{provider}: an event of the answer is over {EVENT_CAP} bytes")
    name, _, value = pending.rstrip(b"\r").decode("utf-8", "replace").partition(":")
    if name == "data":
        data.append(value.removeprefix(" "))
    if data:
        yield Event(kind or "message", "\n".join(data))


async def _error_answer(response: aiohttp.ClientResponse) -> str:
    """What an error answer says, read up to a bound."""
    raw = b""
    try:
        while len(raw) <= ERROR_BODY_CAP and (chunk := await response.content.readany()):
            raw += chunk
    except (aiohttp.ClientError, TimeoutError):
        pass  # what was read is what there is
    finally:
        response.release()
    text = raw[:ERROR_BODY_CAP].decode("utf-8", "replace").strip()
    try:
        return error_text(json.loads(text))
    except json.JSONDecodeError:
        return text[:500] or (response.reason or f"status {response.status}")


def _should_retry(response: aiohttp.ClientResponse) -> bool:
    verdict = response.headers.get("x-should-retry")
    if verdict in ("true", "false"):
        return verdict == "true"
    return response.status in RETRY_STATUSES or response.status >= 500


def _retry_after(headers: Mapping[str, str]) -> float | None:
    """Seconds the server asks us to wait, if it asks for between 0 and a minute."""
    seconds: float | None = None
    try:
        if (ms := headers.get("retry-after-ms")) is not None:
            seconds = float(ms) / 1000
        elif (value := headers.get("retry-after")) is not None:
            try:
                seconds = float(value)
            except ValueError:
                date = email.utils.parsedate_tz(value)
                seconds = email.utils.mktime_tz(date) - time.time() if date else None
    except (ValueError, OverflowError):
        return None
    return seconds if seconds is not None and 0 < seconds <= MAX_RETRY_AFTER else None


def _backoff(attempt: int) -> float:
    return min(INITIAL_DELAY * 2.0**attempt, MAX_DELAY) * (1 - 0.25 * random.random())


def _failure(err: BaseException) -> str:
    if isinstance(err, TimeoutError):
        return "the request timed out"
    if isinstance(err, aiohttp.ClientConnectionError) and not isinstance(
        err, aiohttp.ClientPayloadError
    ):
        return f"connection error: {err or type(err).__name__}"
    return str(err) or type(err).__name__
