"""What a streamed reply costs on the wire: the bytes of every `wave/chat/updated` frame a real
`wavehost serve` writes while one scripted reply streams (16 characters a piece, as a model
streams), read raw off its stdout. Used by the tests and by bench/reliability.py."""

import time
import uuid
from dataclasses import dataclass

from tests.reliability.raw_lsp import RawServer
from tests.workspace import Workspace
from wavehost.protocol import table


@dataclass(frozen=True)
class ReplyOnTheWire:
    reply_bytes: int  # the reply's text, UTF-8
    sent_bytes: int  # every wave/chat/updated frame of the turn, headers included
    notifications: int
    seconds: float  # from the send to the turn's end (the idle update)

    @property
    def ratio(self) -> float:
        return self.sent_bytes / self.reply_bytes


def reply_on_the_wire(workspace: Workspace, text: str) -> ReplyOnTheWire:
    script = workspace.write(workspace.root / "reply.json", {"turns": [{"text": text}]})
    env = {"WAVE_PROVIDER": "scripted", "WAVE_SCRIPT": str(script)}
    server = RawServer(workspace, extra_env=env)
    try:
        server.initialize()
        session = str(uuid.uuid4())
        opened = server.request(table.CHAT_OPEN.name, {"sessionId": session, "create": True})
        assert "result" in server.response(opened, timeout=120)
        began = time.monotonic()
        server.request(table.CHAT_SEND.name, {"sessionId": session, "text": "go"})
        sent = notifications = 0
        while True:
            message, size = server.receive_sized(timeout=300)
            if message.get("method") != table.CHAT_UPDATED.name:
                continue
            sent += size
            notifications += 1
            if message["params"]["status"] == "idle":
                break
        return ReplyOnTheWire(len(text.encode()), sent, notifications, time.monotonic() - began)
    finally:
        server.close()
