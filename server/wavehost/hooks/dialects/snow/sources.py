"""Snow CLI's hook files: `<project>/.snow/hooks/<type>.json`, then `~/.snow/hooks/<type>.json`.

One file per hook type; its body is a bare array of rules or `{"<type>": [rules]}`. Both files
of a type run, the project's first (seed 004 "执行优先级"). A rule is `{description, matcher?,
hooks: [action…]}`; an action `{type: command|prompt|context, command|prompt|content, timeout?
(ms, default 5000), enabled}`, and it runs only when `enabled` is exactly `true` (others are
listed as disabled). The rules the seed gives are enforced with a diagnostic: `prompt` only on
`onSubAgentComplete` / `onStop` and alone in its rule; `context` only on the injection types.
Project files obey workspace trust.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wavehost import paths
from wavehost.hooks.config import (
    ConfigFile,
    Diagnostic,
    HandlerKind,
    HookHandler,
    Source,
    failed_file,
    fingerprint,
    identified,
    read_config,
)
from wavehost.hooks.dialects.base import DialectSources
from wavehost.hooks.dialects.snow.events import (
    CONDITIONS,
    CONTEXT_TYPES,
    PROMPT_TYPES,
    TOOL_TYPES,
    TYPES,
)
from wavehost.hooks.dialects.snow.matcher import compile_matcher
from wavehost.hooks.jsonpointer import pointer_join
from wavehost.hooks.patterns import CompileBudget, PatternError
from wavehost.hooks.settings_files import kind_of

FIELD_OF: dict[HandlerKind, str] = {"command": "command", "prompt": "prompt", "context": "content"}


@dataclass
class _FileReader:
    source: Source
    path: Path
    hook_type: str
    untrusted: bool
    prefix: tuple[str, ...] = ()  # () for a bare array, (type,) for the object form
    budget: CompileBudget = field(default_factory=CompileBudget)  # this file's matchers
    handlers: list[HookHandler] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def problem(self, pointer: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(str(self.path), pointer, message))

    def read(self, rules: list[Any]) -> None:
        for index, rule in enumerate(rules):
            self._rule(rule, (*self.prefix, index))
        self.handlers = identified(self.handlers, self.source, str(self.path))

    def _rule(self, rule: Any, at: tuple[str | int, ...]) -> None:
        where = pointer_join(*at)
        if not isinstance(rule, Mapping):
            self.problem(where, f'a rule must be an object with "hooks", not {kind_of(rule)}')
            return
        actions = rule.get("hooks")
        if not isinstance(actions, list) or not actions:
            self.problem(where + "/hooks", '"hooks" must be a non-empty list of actions')
            return
        raw_matcher = rule.get("matcher")
        if raw_matcher is not None and not isinstance(raw_matcher, str):
            self.problem(
                where + "/matcher", f"matcher must be a string, not {kind_of(raw_matcher)}"
            )
            return
        kinds = [a.get("type") for a in actions if isinstance(a, Mapping)]
        if "prompt" in kinds and len(actions) > 1:
            message = 'a rule with a "prompt" action can have no other action; the rule is skipped'
            self.problem(where + "/hooks", message)
            return
        try:
            matcher = compile_matcher(raw_matcher, self.hook_type in TOOL_TYPES, self.budget)
        except PatternError as err:
            self.problem(where + "/matcher", f"matcher over budget: {err}; the rule is skipped")
            return
        description = rule.get("description")
        for index, action in enumerate(actions):
            action_at = pointer_join(*at, "hooks", index)
            problem = self._action_error(action)
            if problem is not None:
                field_name, message = problem
                self.problem(action_at + (f"/{field_name}" if field_name else ""), message)
                continue
            kind: HandlerKind = action["type"]
            content = fingerprint(self.hook_type, raw_matcher, action)
            timeout = action.get("timeout") or 0
            event = TYPES[self.hook_type]
            self.handlers.append(
                HookHandler(
                    id="",  # see `identified`
                    event=event,
                    matcher=matcher,
                    command=action[FIELD_OF[kind]],
                    source=self.source,
                    path=self.path,
                    pointer=action_at,
                    fingerprint=content,
                    timeout=timeout / 1000 if timeout else None,
                    description=description if isinstance(description, str) else None,
                    untrusted=self.untrusted,
                    dialect="snow",
                    key=self.hook_type,
                    kind=kind,
                    group_pointer=where,
                    disabled=action.get("enabled") is not True,
                    condition=CONDITIONS.get(event),
                )
            )

    def _action_error(self, action: Any) -> tuple[str, str] | None:
        if not isinstance(action, Mapping):
            return "", f"an action must be an object, not {kind_of(action)}"
        kind = action.get("type")
        if kind not in FIELD_OF:
            return "type", '"type" must be "command", "prompt" or "context"'
        if kind == "prompt" and self.hook_type not in PROMPT_TYPES:
            return "type", '"prompt" actions work only in onSubAgentComplete and onStop'
        if kind == "context" and self.hook_type not in CONTEXT_TYPES:
            allowed = ", ".join(sorted(CONTEXT_TYPES))
            return "type", f'"context" actions work only in {allowed}'
        name = FIELD_OF[kind]
        text = action.get(name)
        if not isinstance(text, str) or not text.strip():
            return name, f'"{name}" must be a non-empty string'
        timeout = action.get("timeout")
        if "timeout" in action and (
            isinstance(timeout, bool)
            or not isinstance(timeout, int | float)
            or timeout < 0
            or timeout != int(timeout)
        ):
            return "timeout", '"timeout" must be a whole number of milliseconds'
        enabled = action.get("enabled")
        if "enabled" in action and not isinstance(enabled, bool):
            return "enabled", '"enabled" must be true or false (the action runs only when true)'
        return None


def _read_file(
    source: Source, path: Path, hook_type: str, untrusted: bool, within: Path | None = None
) -> tuple[ConfigFile, _FileReader]:
    loaded = read_config(source, path, dialect="snow", untrusted=untrusted, empty=[], within=within)
    document = loaded.document
    reader = _FileReader(source, path, hook_type, untrusted)
    rules: list[Any] | None = None
    if isinstance(document, list):
        rules = document
    elif isinstance(document, dict):
        value = document.get(hook_type)
        if isinstance(value, list):
            rules, reader.prefix = value, (hook_type,)
        elif value is None:
            message = f'no "{hook_type}" list in this file: nothing in it runs'
            reader.problem(pointer_join(hook_type), message)
        else:
            message = f'"{hook_type}" must be a list of rules, not {kind_of(value)}'
            loaded = failed_file(loaded, message)
    elif document is not None:
        message = f"must be a list of rules or an object, not {kind_of(document)}"
        loaded = failed_file(loaded, message)
    reader.diagnostics[:0] = loaded.diagnostics
    if rules is not None:
        reader.read(rules)
    return loaded.file, reader


def handlers_in(source: Source, path: Path, document: Any) -> list[HookHandler]:
    """The hooks a Snow hook file's document defines, with the ids a list gives them."""
    hook_type = path.stem
    reader = _FileReader(source, path, hook_type, untrusted=False)
    if hook_type not in TYPES:
        return []
    if isinstance(document, list):
        reader.read(document)
    elif isinstance(document, dict) and isinstance(document.get(hook_type), list):
        reader.prefix = (hook_type,)
        reader.read(document[hook_type])
    return reader.handlers


def load(project_dir: Path | None, home: Path | None, trusted: bool) -> DialectSources:
    roots: list[tuple[Source, Path]] = []
    if project_dir is not None:
        roots.append(("project", paths.snow_project_hooks(project_dir)))
    roots.append(("user", paths.snow_user_hooks(home)))
    handlers: list[HookHandler] = []
    files: list[ConfigFile] = []
    diagnostics: list[Diagnostic] = []
    for source, root in roots:
        for hook_type in TYPES:
            path = root / f"{hook_type}.json"
            if not os.path.lexists(path):
                continue
            untrusted = not trusted and source == "project"
            within = project_dir if source == "project" else None  # `.snow/hooks` linked out
            file, reader = _read_file(source, path, hook_type, untrusted, within)
            files.append(file)
            handlers += reader.handlers
            diagnostics += reader.diagnostics
    folders = frozenset(
        root
        for source, root in roots
        if source != "project" or project_dir is None or paths.outside(project_dir, root) is None
    )
    return DialectSources(tuple(handlers), tuple(files), tuple(diagnostics), folders)
