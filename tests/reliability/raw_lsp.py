"""`wavehost serve` driven with raw bytes: for frames no well-behaved client library would send."""

import json
import os
import queue
import subprocess
import sys
import threading
from typing import Any

from tests.processes import proc_status
from tests.workspace import Workspace

TIMEOUT = 30.0


def frame(body: bytes | str | dict[str, Any] | list[Any]) -> bytes:
    if not isinstance(body, bytes | str):
        body = json.dumps(body)
    data = body.encode() if isinstance(body, str) else body
    return b"Content-Length: %d\r\n\r\n%s" % (len(data), data)


class RawServer:
    """A real `wavehost serve` subprocess; responses are read by a thread into a queue."""

    def __init__(self, workspace: Workspace, extra_env: dict[str, str] | None = None) -> None:
        env = {**os.environ, "HOME": str(workspace.home), **(extra_env or {})}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "wavehost", "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=workspace.project,
            env=env,
        )
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.sizes: queue.Queue[int] = queue.Queue()  # each message's frame, in bytes, in order
        self._ids = 0
        threading.Thread(target=self._read, daemon=True).start()
        self.project = workspace.project

    def _read(self) -> None:
        assert self.process.stdout is not None
        stream = self.process.stdout
        while True:
            length, header = None, 0
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                header += len(line)
                if not line.strip():
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            assert length is not None
            self.sizes.put(header + length)
            self.messages.put(json.loads(stream.read(length)))

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send_message(self, message: dict[str, Any]) -> None:
        self.send(frame(message))

    def next_id(self) -> int:
        self._ids += 1
        return self._ids

    def request(self, method: str, params: Any = None, **extra: Any) -> int:
        msg_id = self.next_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method, **extra}
        if params is not None:
            message["params"] = params
        self.send_message(message)
        return msg_id

    def notify(self, method: str, params: Any = None) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send_message(message)

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.receive_sized(timeout)[0]

    def receive_sized(self, timeout: float = TIMEOUT) -> tuple[dict[str, Any], int]:
        """The next message and the bytes of its frame."""
        message = self.messages.get(timeout=timeout)
        assert message is not None, "the server closed its output"
        return message, self.sizes.get(timeout=timeout)

    def response(self, msg_id: int | None, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The response to `msg_id` (None: the next response with id null); others are kept
        aside, server→client requests and notifications skipped."""
        while True:
            message = self.receive(timeout)
            if "method" in message:
                if "id" in message:  # a request to the client: answer it emptily
                    self.send_message({"jsonrpc": "2.0", "id": message["id"], "result": None})
                continue
            if message.get("id") == msg_id:
                return message

    def initialize(self, options: dict[str, Any] | None = None) -> None:
        msg_id = self.request(
            "initialize",
            {
                "processId": None,
                "rootUri": self.project.as_uri(),
                "capabilities": {},
                # as a shell of a trusted workspace says (`options` may say otherwise)
                "initializationOptions": {
                    "projectDir": str(self.project),
                    "trusted": True,
                    **(options or {}),
                },
            },
        )
        assert "result" in self.response(msg_id)
        self.notify("initialized", {})

    def alive(self) -> bool:
        return self.process.poll() is None

    def peak_memory_kb(self) -> int:
        return int(proc_status(self.process.pid, "VmHWM"))

    def close(self) -> None:
        if self.alive():
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
