"""The LSP edge's guard: every frame read is bounded, every request gets an answer.

pygls' own read loop trusts its input: a `Content-Length` of 10^12 made it allocate and exit, a
huge body was parsed whole, an unparseable body or a standard request whose params do not fit
lsprotocol's types was logged and never answered. This loop replaces it (`start_io`): headers are
read line by line with a cap on their length, a body larger than `MAX_MESSAGE_BYTES` is skipped
in small chunks (never held) and refused, and each message is checked before pygls sees it.

Errors, as JSON-RPC says: -32700 a body that is not JSON (or is nested too deeply to parse),
-32600 a frame or an envelope that is not a request (too large, no `Content-Length`, not an
object, a bad `id` or `method`, a request after `shutdown`), -32601 a method nobody handles,
-32602 params that do not fit the method's types. A notification is never answered (the protocol
forbids it): it is logged and dropped. After any of these the server reads the next frame.

Writing (`WaveProtocol`): frames are UTF-8 JSON, compact — pygls writes `\\u` escapes, six bytes
for a Chinese character that is three, which doubled the bytes of a reply in the product's
language; a result may come already encoded (`Encoded`), and is then written as it is: a large
answer asked for again and again unchanged — the hooks list — cost more to encode (pygls
unstructures it through cattrs, then `json.dumps` it) than the rest of its round trip.
"""

import asyncio
import json
import logging
import signal
import sys
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, BinaryIO

from cattrs.errors import ClassValidationError
from cattrs.v import transform_error
from pygls.exceptions import JsonRpcInternalError
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCProtocol, LanguageServerProtocol

log = logging.getLogger(__name__)
_pygls_log = logging.getLogger("pygls.protocol.json_rpc")  # not forwarded to the client

MAX_MESSAGE_BYTES = 16 * 1024 * 1024  # the browser relay's WebSocket limit too
MAX_HEADER_LINE = 8 * 1024
SKIP_CHUNK = 1024 * 1024

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

ENVELOPE = ("jsonrpc", "id", "method", "params", "result", "error")


class Encoded:
    """A request's result as JSON text (UTF-8, compact), encoded once, sent as often as asked."""

    __slots__ = ("json",)

    def __init__(self, value: Any) -> None:
        self.json = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


@dataclass(frozen=True)
class Refused:
    """A frame that cannot be a message: answered with `code` and id null."""

    code: int
    message: str


class FrameReader:
    """LSP base-protocol frames from a blocking binary stream, read in a worker thread."""

    def __init__(self, stream: BinaryIO, executor: ThreadPoolExecutor | None) -> None:
        self._stream = stream
        self._executor = executor
        self._skip_next = 0  # the body of a refused, too large frame, skipped a chunk at a time

    def _run(self, read: Callable[[int], bytes], size: int) -> Awaitable[bytes]:
        return asyncio.get_running_loop().run_in_executor(self._executor, read, size)

    async def _line(self) -> bytes | None:
        """One header line (None at the end of the stream); an overlong one is read to its end
        and returned cut, which makes it an invalid header."""
        line = await self._run(self._stream.readline, MAX_HEADER_LINE)
        if not line:
            return None
        if not line.endswith(b"\n"):
            while True:  # the rest of an overlong line goes, a chunk at a time
                rest = await self._run(self._stream.readline, MAX_HEADER_LINE)
                if not rest or rest.endswith(b"\n"):
                    break
            return b"\0overlong"
        return line

    async def next(self) -> bytes | Refused | None:
        """The next body, a refusal, or None at the end of the stream."""
        if self._skip_next:
            await self._skip(self._skip_next)
            self._skip_next = 0
        length: int | None = None
        problem: str | None = None
        seen_header = False
        while True:
            line = await self._line()
            if line is None:
                return None
            text = line.strip()
            if not text:
                if not seen_header:
                    continue  # stray blank lines between frames
                break
            seen_header = True
            name, colon, value = text.partition(b":")
            if not colon or name.startswith(b"\0"):
                problem = problem or "a header line that is not `Name: value` (or too long)"
            elif name.strip().lower() == b"content-length":
                digits = value.strip()
                if not digits.isdigit() or len(digits) > 20:
                    problem = problem or f"Content-Length is not a number: {digits[:40]!r}"
                else:
                    length = int(digits)
        if problem is not None:
            return Refused(INVALID_REQUEST, f"Invalid message header: {problem}")
        if length is None:
            return Refused(INVALID_REQUEST, "Invalid message header: no Content-Length")
        if length > MAX_MESSAGE_BYTES:
            self._skip_next = length  # after the refusal is sent: the skip may take long
            return Refused(
                INVALID_REQUEST,
                f"Message too large: {length} bytes (wavehost reads at most "
                f"{MAX_MESSAGE_BYTES} bytes per message)",
            )
        body = await self._run(self._stream.read, length)
        if len(body) < length:
            return None  # the stream ended inside the body
        return body

    async def _skip(self, length: int) -> None:
        left = length
        while left > 0:
            chunk = await self._run(self._stream.read, min(SKIP_CHUNK, left))
            if not chunk:
                return
            left -= len(chunk)


class WaveProtocol(LanguageServerProtocol):
    """pygls' protocol, writing text as UTF-8 rather than `\\u` escapes, compactly, and an
    `Encoded` result without encoding it again; the `Content-Length` counts the bytes, as the
    base protocol says (its Content-Type, UTF-8 JSON, is the default, and left out)."""

    def _send_data(self, data: Any) -> None:
        if not data or self.writer is None:
            super()._send_data(data)  # nothing to send, or no transport (pygls logs it)
            return
        try:
            result = getattr(data, "result", None)
            if isinstance(result, Encoded) and getattr(data, "error", None) is None:
                head = b'{"jsonrpc":"2.0","id":' + json.dumps(data.id).encode() + b',"result":'
                body = head + result.json + b"}"
            else:
                body = json.dumps(
                    data, default=self._serialize_message, ensure_ascii=False, separators=(",", ":")
                ).encode("utf-8")
            self.writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))  # stdout's
        except BrokenPipeError:
            raise  # start_io ends the server: the client is gone
        except Exception as error:
            # pygls' own logger, as pygls does: wavehost's loggers are forwarded to the client,
            # and a message about a message that cannot be sent would be one more to send.
            _pygls_log.exception("sending a message failed")
            self._server._report_server_error(error, JsonRpcInternalError)


def _valid_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _handled(protocol: JsonRPCProtocol, method: str) -> bool:
    return method in protocol.fm.builtin_features or method in protocol.fm.features


def _params_problem(err: Exception) -> str:
    cause = err.__cause__ if err.__cause__ is not None else err
    if isinstance(cause, ClassValidationError):
        return "; ".join(transform_error(cause)) or str(cause)
    return str(cause) or type(cause).__name__


class Guard:
    """Checks each body and hands it to pygls, answering what pygls would leave unanswered."""

    def __init__(self, protocol: JsonRPCProtocol) -> None:
        self.protocol = protocol
        self.refused = 0  # messages answered with an error here (for tests and benches)
        self.shutdown_asked = False  # a `shutdown` request came (answered or not yet)

    def answer_error(self, msg_id: Any, code: int, message: str) -> None:
        self.refused += 1
        log.info("refused a message (%d): %s", code, message)
        error = {"code": code, "message": message}
        self.protocol._send_data({"jsonrpc": "2.0", "id": msg_id, "error": error})

    def handle(self, body: bytes) -> None:
        try:
            raw = json.loads(body)
        except (ValueError, RecursionError) as err:
            reason = "nested too deeply" if isinstance(err, RecursionError) else str(err)
            self.answer_error(None, PARSE_ERROR, f"Parse error: {reason}")
            return
        if not isinstance(raw, dict) or raw.get("jsonrpc") != "2.0":
            msg_id = raw.get("id") if isinstance(raw, dict) else None
            text = 'Invalid Request: not a JSON-RPC 2.0 object ("jsonrpc": "2.0")'
            self.answer_error(msg_id if _valid_id(msg_id) else None, INVALID_REQUEST, text)
            return
        message = {key: raw[key] for key in ENVELOPE if key in raw}
        method = message.get("method")
        is_request = "id" in message and "method" in message
        if "id" in message and not (_valid_id(message["id"]) or message["id"] is None):
            self.answer_error(
                None, INVALID_REQUEST, "Invalid Request: id must be a string or an integer"
            )
            return
        if "method" in message and not isinstance(method, str):
            if is_request:
                self.answer_error(
                    message["id"], INVALID_REQUEST, "Invalid Request: method must be a string"
                )
            return
        if is_request and not self._check_request(message["id"], str(method)):
            return
        self.shutdown_asked = self.shutdown_asked or (is_request and method == "shutdown")
        try:
            structured = self.protocol.structure_message(message)
        except Exception as err:
            if is_request:
                problem = _params_problem(err)
                self.answer_error(
                    message["id"], INVALID_PARAMS, f"Invalid params for {method}: {problem}"
                )
            else:
                log.warning(
                    "dropped a malformed %s: %s", method or "response", _params_problem(err)
                )
            return
        self.protocol.handle_message(structured)

    def _check_request(self, msg_id: Any, method: str) -> bool:
        if msg_id is None:
            self.answer_error(None, INVALID_REQUEST, "Invalid Request: a request needs an id")
            return False
        if getattr(self.protocol, "_shutdown", False) and method != "exit":
            self.answer_error(msg_id, INVALID_REQUEST, f"{method}: the server is shutting down")
            return False
        if not _handled(self.protocol, method):
            self.answer_error(msg_id, METHOD_NOT_FOUND, f"Unhandled method {method}")
            return False
        return True


async def read_loop(stop: threading.Event, reader: FrameReader, guard: Guard) -> None:
    try:
        while not stop.is_set():
            frame = await reader.next()
            if frame is None:
                break
            if isinstance(frame, Refused):
                guard.answer_error(None, frame.code, frame.message)
                continue
            try:
                guard.handle(frame)
            except Exception:  # a bug behind the guard: logged, and the next frame is read
                log.exception("handling a message failed")
    finally:  # the input ended, or `exit`: whatever happens next, the process ends soon
        _end_within_grace()


def _end_within_grace() -> None:
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
        signal.alarm(EXIT_GRACE)


EXIT_GRACE = 10  # seconds the process may take to end once its client is gone


def start_io(
    server: LanguageServer, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
) -> int:
    """pygls' `start_io` (async flavour) with this guarded read loop; the exit code: 0, or 1
    for an `exit` without `shutdown` (LSP).

    Once the input ends (or `exit` came) the process has `EXIT_GRACE` seconds to end: the
    kernel's SIGALRM ends it then, even if a thread is stuck in C code holding the GIL. The
    caller leaves with `os._exit`, so no thread still working can hold it up either."""
    stop = threading.Event()
    server._stop_event = stop  # what pygls' shutdown() sets to end the loop
    server.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
    reader = FrameReader(stdin or sys.stdin.buffer, server.thread_pool)
    guard = Guard(server.protocol)
    code = 0
    try:
        asyncio.run(read_loop(stop, reader, guard))
    except BrokenPipeError:
        log.error("the connection to the client is lost; shutting down")
    except KeyboardInterrupt:
        pass
    except SystemExit:  # pygls' `exit` handler (whose own code misses a shutdown under way)
        code = 0 if guard.shutdown_asked else 1
    finally:
        stop.set()
        # pygls' shutdown() would wait for every worker thread, a stuck one included
        server.thread_pool.shutdown(wait=False, cancel_futures=True)
    return code
