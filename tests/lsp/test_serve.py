"""`wavehost serve` and `wavehost protocol-schema`: the process, its options, its output."""

import io
import json
import os
import subprocess
import sys
import tempfile

from lsprotocol import types

from tests.hooks_doc import hook
from tests.lsp.client import SERVER, frame, read_frame, running_server
from tests.workspace import Workspace
from wavehost.protocol import table


def test_stdout_carries_only_lsp_messages_even_when_logging_everything(
    workspace: Workspace,
) -> None:
    workspace.write(workspace.user_settings, {"hooks": {"Stop": [{"hooks": [hook("x")]}]}})
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "capabilities": {}, "initializationOptions": {"projectDir": str(workspace.project)}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": table.HOOKS_LIST.name, "params": {}},
        {"jsonrpc": "2.0", "id": 3, "method": table.HOOKS_DELETE.name, "params": {}},
        {"jsonrpc": "2.0", "id": 4, "method": "shutdown"},
    ]  # fmt: skip
    # stderr to a file, not a pipe: unread, a pipe could fill up and block the server.
    with tempfile.TemporaryFile() as stderr:
        server = subprocess.Popen(
            [*SERVER[:-2], "--log-level", "DEBUG"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            env={**os.environ, "HOME": str(workspace.home)},
        )
        assert server.stdin
        assert server.stdout
        server.stdin.write(b"".join(map(frame, requests)))
        server.stdin.flush()
        messages = []
        while (message := read_frame(server.stdout)) is not None:
            messages.append(message)
            if message.get("id") == 4:  # a client exits only once shutdown is answered
                server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
                server.stdin.close()
        assert server.wait(timeout=30) == 0
        stderr.seek(0)
        logged_to_stderr = stderr.read()

    answers = {m["id"]: m for m in messages if "id" in m}
    assert answers[1]["result"]["serverInfo"]["name"] == "wavehost"
    assert [h["command"] for h in answers[2]["result"]["hooks"]] == ["x"]
    assert answers[3]["error"]["code"] == -32602
    assert answers[4]["result"] is None
    logged = [m for m in messages if m.get("method") == "window/logMessage"]
    assert any("wavehost" in m["params"]["message"] for m in logged)
    assert b"DEBUG" in logged_to_stderr


async def test_bad_initialization_options_are_ignored_one_by_one_with_a_warning(
    workspace: Workspace,
) -> None:
    workspace.write(workspace.project_settings, {"hooks": {"Stop": [{"hooks": [hook("p")]}]}})
    async with running_server(workspace, options={"trusted": "maybe"}) as client:
        listed = await client.list_hooks()
        warnings = [m.message for m in client.log_messages if m.type == types.MessageType.Warning]

    assert listed["project"]["dir"] == str(workspace.project)  # projectDir still applied
    assert listed["trusted"] is False  # a trust it cannot read is none: the default
    assert any("initializationOptions.trusted" in w for w in warnings)


async def test_programmatic_hooks_are_accepted_but_not_listed(workspace: Workspace) -> None:
    options = {"hooks": {"Stop": [{"hooks": [hook("in-memory")]}]}}
    async with running_server(workspace, options=options) as client:
        listed = await client.list_hooks()
    assert listed["hooks"] == []


def test_protocol_schema_describes_every_method_in_camel_case() -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "wavehost", "protocol-schema"],
        capture_output=True,
        check=True,
        timeout=60,
    )
    schema = json.loads(printed.stdout)

    assert set(schema["methods"]) == {m.name for m in table.METHODS}
    assert {table.CHAT_CLOSE.name, table.WORKSPACE_SET_TRUSTED.name} <= set(schema["methods"])
    for method in table.METHODS:
        entry = schema["methods"][method.name]
        assert entry["constant"] == method.constant
        assert (entry["feature"], entry["session"]) == (method.feature, method.session)
        assert entry["params"]["$ref"].removeprefix("#/$defs/") in schema["$defs"]
        assert ("result" in entry) == (entry["kind"] == "request")
    assert schema["methods"][table.CHAT_OPEN.name]["session"] == "opens"
    commands = schema["shellCommands"]
    assert set(commands) == {c.name for c in table.SHELL_COMMANDS}
    assert {"ready", "closeSettings", "openChat", "showView", "prefill", "setLocale"} <= set(
        commands
    )
    assert commands["openChat"]["direction"] == "pageToShell"
    assert commands["showFile"]["direction"] == "shellToPage"
    show_file = schema["$defs"]["ShowFileArgs"]
    # line, endLine: null when none
    assert set(show_file["required"]) == {"path", "content", "line", "endLine"}
    assert commands["restartServer"]["direction"] == "pageToShell"
    assert commands["serverState"]["direction"] == "shellToPage"
    state = schema["$defs"]["ServerStateArgs"]
    assert set(state["required"]) == {"running", "reason"}
    # What the server writes has every field: discriminators too, so generated types need them.
    assert "role" in schema["$defs"]["UserMessage"]["required"]
    assert "type" in schema["$defs"]["ToolBlock"]["required"]
    assert "op" in schema["$defs"]["MessagePut"]["required"]
    assert schema["language"]["unset"] == schema["language"]["fallback"] == "en"
    assert schema["methods"][table.HOOKS_CHANGED.name]["direction"] == "serverToClient"
    asked = schema["methods"][table.CHAT_REQUEST_PERMISSION.name]
    assert (asked["direction"], asked["kind"]) == ("serverToClient", "request")
    assert schema["methods"][table.CHAT_UPDATED.name]["kind"] == "notification"
    updated = schema["$defs"]["ChatUpdatedParams"]["properties"]
    assert {"sessionId", "deltas", "status", "queued", "runningHooks"} <= set(updated)
    assert {"UserMessage", "AssistantMessage", "ToolBlock", "NoticeBlock"} <= set(schema["$defs"])
    chat_reasons = schema["$defs"]["ChatErrorData"]["properties"]["reason"]["enum"]
    assert "sessionNotOpen" in chat_reasons
    hook_entry = schema["$defs"]["HookEntry"]["properties"]
    assert {"readOnly", "async", "asyncRewake"} <= set(hook_entry)
    reasons = schema["$defs"]["SettingsErrorData"]["properties"]["reason"]["enum"]
    assert set(reasons) == {
        "notFound",
        "readOnly",
        "conflict",
        "permissionDenied",
        "malformedConfig",
        "ioError",
        "unknownPath",
        "invalidPayload",  # wave/hooks/test: the edited sample is not the event's payload
        "untrusted",  # wave/hooks/test: a project hook of an untrusted workspace never runs
        "inputNotKept",  # wave/hooks/test: "Run again" of a run whose input is no longer kept
    }
    assert "projectDir" in schema["$defs"]["InitializationOptions"]["properties"]


def test_starting_serve_loads_neither_pydantic_nor_the_engine() -> None:
    # `wavehost serve` must answer initialize about as fast as a bare pygls server (bench/lsp.py):
    # the CLI's parser and the server module may not pull in the heavy parts before they are used.
    # The server registers its handlers from the method table: so the table is light too.
    probe = (
        "import sys\n"
        "from wavehost import cli\n"
        "from wavehost.lsp import server\n"
        "cli._parser().parse_args(['serve'])\n"
        "server.create_server()\n"
        "roots = ('pydantic', 'anthropic', 'openai', 'aiohttp')\n"
        "ours = ('wavehost.hooks', 'wavehost.session', 'wavehost.settings')\n"
        "print([m for m in sys.modules if m.split('.')[0] in roots or m.startswith(ours)])\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == "[]"


def test_serve_accepts_the_stdio_flag_that_vscode_languageclient_appends(
    workspace: Workspace,
) -> None:
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    served = subprocess.run(
        [*SERVER, "--stdio"],
        input=b"".join(map(frame, requests)),
        capture_output=True,
        env={**os.environ, "HOME": str(workspace.home)},
        timeout=60,
    )
    assert served.returncode == 0, served.stderr.decode()
    stream = io.BytesIO(served.stdout)
    answers = []
    while (message := read_frame(stream)) is not None:
        answers.append(message)
    assert [m["id"] for m in answers if "id" in m] == [1, 2]
    assert answers[0]["result"]["serverInfo"]["name"] == "wavehost"


def test_an_unchanged_hooks_list_is_sent_as_the_same_bytes_and_a_change_is_seen_at_once(
    workspace: Workspace,
) -> None:
    """The list is encoded once per change (compact UTF-8, its frame's length in bytes): asked
    again, the same bytes; the file edited, the next answer is the new list."""
    settings = workspace.user_settings
    workspace.write(settings, {"hooks": {"Stop": [{"hooks": [hook("echo ✓ ä — 完成")]}]}})
    initialize = {
        "capabilities": {},
        "initializationOptions": {"projectDir": str(workspace.project)},
    }
    server = subprocess.Popen(
        SERVER,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "HOME": str(workspace.home)},
    )
    assert server.stdin is not None
    assert server.stdout is not None
    stdin, stdout = server.stdin, server.stdout

    def call(msg_id: int, method: str, params: object = None) -> bytes:
        message = {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params or {}}
        stdin.write(frame(message))
        stdin.flush()
        while True:
            length = 0
            while (line := stdout.readline()) != b"\r\n":
                assert line, "the server closed its output"
                name, _, value = line.decode("ascii").partition(":")
                length = int(value) if name == "Content-Length" else length
            body = stdout.read(length)
            answer = json.loads(body)  # the whole body, and nothing of the next frame
            if answer.get("id") == msg_id and "method" not in answer:
                return body

    try:
        call(1, "initialize", initialize)
        stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
        first, second = call(2, table.HOOKS_LIST.name), call(3, table.HOOKS_LIST.name)
        assert first.replace(b'"id":2', b'"id":3') == second
        assert "echo ✓ ä — 完成".encode() in first  # UTF-8 as it is, not \u escapes
        assert [h["command"] for h in json.loads(first)["result"]["hooks"]] == ["echo ✓ ä — 完成"]
        workspace.write(settings, {"hooks": {"Stop": [{"hooks": [hook("echo changed")]}]}})
        third = json.loads(call(4, table.HOOKS_LIST.name))
        assert [h["command"] for h in third["result"]["hooks"]] == ["echo changed"]
        call(5, "shutdown")
        stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
        stdin.close()
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
        server.wait()
