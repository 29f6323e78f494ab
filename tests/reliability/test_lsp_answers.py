"""The LSP layer answers everything: bad params, bad JSON, bad frames, huge frames."""

import json
from collections.abc import Iterator
from typing import Any

import pytest
from lsprotocol import types

from tests.reliability.raw_lsp import RawServer, frame
from tests.workspace import Workspace, make_workspace
from wavehost.lsp.framing import MAX_MESSAGE_BYTES
from wavehost.protocol import table

STANDARD_REQUESTS = sorted(
    method
    for method, (kind, *_) in types.METHOD_TO_TYPES.items()
    if kind.__name__.endswith("Request") and method not in ("initialize", "shutdown")
)
BAD_PARAMS: list[Any] = ["x", {"bogus": {"deep": [1]}}, [1, 2], 7]


def started(workspace: Workspace) -> RawServer:
    raw = RawServer(workspace)
    raw.initialize()
    return raw


@pytest.fixture(scope="module")
def shared() -> Iterator[RawServer]:
    """One server for the cases that must leave it working (each checks that it still does)."""
    for workspace in make_workspace():
        raw = started(workspace)
        yield raw
        raw.close()


@pytest.fixture
def server(shared: RawServer) -> RawServer:
    assert shared.alive()
    return shared


@pytest.fixture
def own_server(workspace: Workspace) -> Iterator[RawServer]:
    """A server of its own, for a case that ends it."""
    raw = started(workspace)
    yield raw
    raw.close()


def still_answers(server: RawServer) -> None:
    msg_id = server.request(table.HOOKS_LIST.name, {})
    assert "result" in server.response(msg_id), "the server no longer answers"


def test_every_standard_request_with_wrongly_shaped_params_is_answered(server: RawServer) -> None:
    sent = {
        server.request(method, params): method
        for method in STANDARD_REQUESTS
        for params in BAD_PARAMS
    }
    answers: dict[int, dict[str, Any]] = {}
    while len(answers) < len(sent):
        message = server.receive()
        if "id" in message and "method" not in message:
            answers[message["id"]] = message
    codes = {message["error"]["code"] for message in answers.values() if "error" in message}
    assert set(answers) == set(sent)
    assert codes <= {-32601, -32602}
    hover = [m for i, m in answers.items() if sent[i] == "workspace/executeCommand"]
    assert all(m["error"]["code"] == -32602 for m in hover)
    assert "Invalid params for workspace/executeCommand" in hover[0]["error"]["message"]
    still_answers(server)


def test_a_method_nobody_handles_is_32601(server: RawServer) -> None:
    msg_id = server.request("textDocument/noSuchThing", {})
    assert server.response(msg_id)["error"]["code"] == -32601
    msg_id = server.request("wave/noSuchThing", {"a": 1})
    assert server.response(msg_id)["error"] == {
        "code": -32601,
        "message": "Unhandled method wave/noSuchThing",
    }


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"{not json", -32700),
        (b"\xff\xfe\x00garbage", -32700),
        (b"", -32700),
        (b'{"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", -32700),
        (b"[1, 2]", -32600),
        (b'"just a string"', -32600),
        (b'{"id": 1, "method": "wave/hooks/list"}', -32600),
        (b'{"jsonrpc": "1.0", "id": 1, "method": "wave/hooks/list"}', -32600),
        (b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "wave/hooks/list"}', -32600),
        (b'{"jsonrpc": "2.0", "id": true, "method": "wave/hooks/list"}', -32600),
        (b'{"jsonrpc": "2.0", "id": null, "method": "wave/hooks/list"}', -32600),
    ],
    ids=[
        "not JSON", "not UTF-8", "empty", "nested 100000 deep", "a batch", "a string",
        "no jsonrpc", "jsonrpc 1.0", "object id", "boolean id", "null id",
    ],
)  # fmt: skip
def test_a_body_that_is_not_a_request_is_answered(
    server: RawServer, body: bytes, code: int
) -> None:
    server.send(frame(body))
    readable_id = 1 if b'"id": 1,' in body else None  # an id that can be read is answered
    assert server.response(readable_id)["error"]["code"] == code
    still_answers(server)


def test_a_method_that_is_not_a_string_is_invalid_with_its_id(server: RawServer) -> None:
    server.send_message({"jsonrpc": "2.0", "id": 41, "method": 5})
    assert server.response(41)["error"]["code"] == -32600
    still_answers(server)


@pytest.mark.parametrize(
    "header",
    [
        b"Content-Type: application/json\r\n\r\n",
        b"Content-Length: lots\r\n\r\n",
        b"Content-Length: -5\r\n\r\n",
        b"X" * 100_000 + b"\r\n\r\n",
        b"no colon here\r\n\r\n",
    ],
    ids=["no length", "not a number", "negative", "a 100 KB header line", "no colon"],
)
def test_a_bad_header_is_answered_and_the_next_frame_read(server: RawServer, header: bytes) -> None:
    server.send(header)
    assert server.response(None)["error"]["code"] == -32600
    still_answers(server)


def test_a_60_mb_message_is_refused_without_holding_it(server: RawServer) -> None:
    before = server.peak_memory_kb()
    body = json.dumps({"jsonrpc": "2.0", "id": 99, "method": "wave/hooks/list", "params": {
        "padding": "x" * (60 * 1024 * 1024)
    }}).encode()  # fmt: skip
    server.send(frame(body))
    refused = server.response(None)
    assert refused["error"]["code"] == -32600
    assert f"{len(body)} bytes" in refused["error"]["message"]
    assert str(MAX_MESSAGE_BYTES) in refused["error"]["message"]
    still_answers(server)
    assert server.peak_memory_kb() - before < 64 * 1024  # the body was never held


def test_a_content_length_of_10_to_the_12_is_refused_and_the_server_stays(
    own_server: RawServer,
) -> None:
    server = own_server
    server.send(b"Content-Length: 1000000000000\r\n\r\n" + b"x" * 1000)
    assert server.response(None)["error"]["code"] == -32600
    assert server.alive()
    # The stream is now inside a body it will never finish: closing it ends the server cleanly.
    server.close()
    assert server.process.returncode is not None


def test_a_notification_with_bad_params_gets_no_answer_and_breaks_nothing(
    server: RawServer,
) -> None:
    server.notify("textDocument/didOpen", "x")
    server.notify("$/cancelRequest", {"id": {"no": "such"}})
    server.notify("wave/nothing", [1])
    msg_id = server.request(table.HOOKS_LIST.name, {})
    first = server.response(msg_id)  # no error with id null came before it
    assert "result" in first


def test_requests_after_shutdown_are_refused_not_ignored(own_server: RawServer) -> None:
    server = own_server
    msg_id = server.request("shutdown")
    assert server.response(msg_id)["result"] is None
    msg_id = server.request(table.HOOKS_LIST.name, {})
    assert server.response(msg_id)["error"]["code"] == -32600
    server.notify("exit")
    assert server.process.wait(10) == 0
