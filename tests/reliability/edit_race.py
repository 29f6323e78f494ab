"""Concurrent deletes against one settings file: several real servers, optionally an editor.

Used by the reliability suite (which asserts on the outcome) and by bench/reliability.py (which
times it). Each server's "page" lists, deletes a random hook, and relists after any refusal, as
the settings page does; the editor (editor.py) saves the file meanwhile without the lock. The
outcome compares the final file with what everyone reported.
"""

import json
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.hooks_doc import hook
from tests.reliability.raw_lsp import RawServer
from tests.workspace import Workspace
from wavehost.protocol import table

HERE = Path(__file__).parent
EVENTS = ["PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit"]
DEADLINE = 120.0  # seconds for a whole run: generous for a loaded machine


def initial_document(groups: int) -> dict[str, Any]:
    hooks = {
        event: [{"matcher": "*", "hooks": [hook(f"{event}-{i}")]} for i in range(groups)]
        for event in EVENTS
    }
    return {"model": "keep-me", "hooks": hooks}


def commands_in(document: dict[str, Any]) -> list[str]:
    return [
        h["command"]
        for groups in document.get("hooks", {}).values()
        for group in groups
        for h in group["hooks"]
    ]


class Deleter(threading.Thread):
    """One server's page. A list may come back empty while an in-place save has just truncated
    the file: it lists again, until every hook was deleted by someone (`done`)."""

    def __init__(self, server: RawServer, seed: int, stop_at: float, done: threading.Event):
        super().__init__(daemon=True)
        self.server, self.random, self.stop_at = server, random.Random(seed), stop_at
        self.done = done
        self.deleted: list[str] = []
        self.reasons: Counter[str] = Counter()
        self.requests = 0
        self.failure: BaseException | None = None

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self.requests += 1
        return self.server.response(self.server.request(method, params), timeout=60)

    def run(self) -> None:
        try:
            hooks = self.call(table.HOOKS_LIST.name, {})["result"]["hooks"]
            while not self.done.is_set() and time.monotonic() < self.stop_at:
                if not hooks:
                    time.sleep(0.01)
                    hooks = self.call(table.HOOKS_LIST.name, {})["result"]["hooks"]
                    continue
                target = self.random.choice(hooks)
                answer = self.call(table.HOOKS_DELETE.name, {"id": target["id"]})
                if "result" in answer:
                    self.deleted.append(answer["result"]["deleted"]["command"])
                    hooks.remove(target)
                    continue
                self.reasons[answer["error"]["data"]["reason"]] += 1
                hooks = self.call(table.HOOKS_LIST.name, {})["result"]["hooks"]
        except BaseException as err:  # reported in the outcome
            self.failure = err


@dataclass
class Outcome:
    servers: int
    editor: str | None
    hooks: int
    seconds: float
    requests: int
    deleted: list[str]
    reasons: Counter[str]
    editor_saves: int
    editor_retries: int
    lost_editor_saves: int  # saves the editor made that are not in the final file
    resurrected: int  # hooks reported deleted that are in the final file
    vanished: int  # hooks gone from the file that nobody reported deleted
    deleted_twice: int
    corrupted: int  # 1 when the final file is not valid JSON
    strays: list[str]  # files next to settings.json at the end
    failures: list[BaseException]
    final: dict[str, Any]

    @property
    def lost(self) -> int:
        return self.lost_editor_saves + self.resurrected + self.vanished + self.deleted_twice

    def figures(self) -> dict[str, Any]:
        return {
            "requests": self.requests,
            "deletes": len(self.deleted),
            "deletes_per_s": round(len(self.deleted) / self.seconds, 1),
            "conflicts": self.reasons["conflict"],
            "not_found": self.reasons["notFound"],
            "torn_reads": self.reasons["malformedConfig"],
            "editor_saves": self.editor_saves,
            "editor_retries": self.editor_retries,
            "lost": self.lost,
            "corrupted": self.corrupted,
            "stray_files": len(self.strays),
        }


def run(workspace: Workspace, servers: int, editor: str | None, groups: int = 10) -> Outcome:
    """Delete every hook of a fresh user settings file with `servers` servers (and an editor of
    kind `editor`: rename, in-place, mixed) saving meanwhile; stop when all are deleted."""
    settings = workspace.write(workspace.user_settings, initial_document(groups))
    initial = set(commands_in(initial_document(groups)))
    running = [RawServer(workspace) for _ in range(servers)]
    stop_file = workspace.root / "stop-editor"
    stop_file.unlink(missing_ok=True)
    report = {"saves": 0, "retries": 0}
    try:
        for server in running:
            server.initialize()
        process = None
        if editor is not None:
            command = [sys.executable, str(HERE / "editor.py"), str(settings), editor]
            process = subprocess.Popen(
                [*command, str(stop_file)], stdout=subprocess.PIPE, text=True
            )
        started = time.monotonic()
        done = threading.Event()
        deleters = [
            Deleter(server, seed, started + DEADLINE, done) for seed, server in enumerate(running)
        ]
        for deleter in deleters:
            deleter.start()
        while any(d.is_alive() for d in deleters) and not done.is_set():
            if sum(len(d.deleted) for d in deleters) >= len(initial):
                done.set()
            time.sleep(0.005)
        for deleter in deleters:
            deleter.join(DEADLINE + 60)
        seconds = time.monotonic() - started
        stop_file.touch()
        if process is not None:
            report = json.loads(process.communicate(timeout=60)[0])
    finally:
        for server in running:
            server.close()
    deleted = [c for d in deleters for c in d.deleted]
    try:
        final, corrupted = json.loads(settings.read_text()), 0
    except ValueError:
        final, corrupted = {}, 1
    remaining = set(commands_in(final))
    saves = {f"editor-{n}" for n in range(report["saves"])}
    return Outcome(
        servers=servers,
        editor=editor,
        hooks=len(initial),
        seconds=seconds,
        requests=sum(d.requests for d in deleters),
        deleted=deleted,
        reasons=sum((d.reasons for d in deleters), Counter()),
        editor_saves=report["saves"],
        editor_retries=report["retries"],
        lost_editor_saves=len(saves - set(final)),
        resurrected=len(remaining & set(deleted)),
        vanished=len(initial - remaining - set(deleted)),
        deleted_twice=len(deleted) - len(set(deleted)),
        corrupted=corrupted,
        strays=sorted(p.name for p in settings.parent.iterdir() if p.name != "settings.json"),
        failures=[d.failure for d in deleters if d.failure is not None],
        final=final,
    )
