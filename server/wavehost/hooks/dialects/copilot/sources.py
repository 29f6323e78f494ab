"""Copilot CLI's hook sources, in the order Copilot 1.0.102 runs them: the user's hooks folder
(`~/.copilot/hooks/**/*.json`, `$COPILOT_HOME/hooks`), the `hooks` of `~/.copilot/settings.json`,
the project's `.github/hooks/**/*.json`, then the `hooks` of `.github/copilot/settings.json` and
`.github/copilot/settings.local.json`. (Copilot also runs `.claude/settings.json` and
`.claude/settings.local.json` between the project folder and its settings files; wavehost runs
those once, as the Claude Code files they are — the Wave dialect's — never here.)

In a folder, its own files run in descending byte order of their names (`z`, `m`, `a`, `_u`,
`Z`, `B`, `2`, `10`), then its subfolders', recursively; dot-files and dot-folders are not read
(observed). A hooks file is `{"version": 1, "hooks": {event: [entry…]}}` (`version` may be left
out); an entry is flat (`{"type"?, "bash"|"command"|"powershell"|"exec"+"args", "cwd"?, "env"?,
"timeoutSec"?, "matcher"?}`) or Claude's nested form (`{"matcher"?, "hooks": [entry…]}`, one
level). Within a file an event's camelCase entries run before its PascalCase ones. What makes
Copilot reject a whole file (invalid JSON, not an object, another `version`, an event that is not
a list, an entry nested deeper than one level) rejects it here; a bad entry is skipped with a
diagnostic and the rest loads. A settings file's `hooks` are read strictly, as Copilot does: a bad
entry (or an empty matcher) rejects all of them; only an invalid matcher regex skips its entry
alone. `"disableAllHooks": true` in a project settings file turns every Copilot hook off, the
user's too (in the user's settings it changes nothing, as in Copilot 1.0.102). Project files obey
workspace trust.
"""

import dataclasses
import os
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wavehost import paths
from wavehost.hooks.catalogue import Event
from wavehost.hooks.config import (
    ConfigFile,
    Diagnostic,
    HookHandler,
    Source,
    failed_file,
    fingerprint,
    identified,
    read_config,
)
from wavehost.hooks.dialects.base import DialectSources
from wavehost.hooks.dialects.copilot.events import CONDITIONS, EVENT_KEYS, is_pascal
from wavehost.hooks.dialects.copilot.matcher import MatcherError, compile_matcher
from wavehost.hooks.jsonpointer import pointer_join
from wavehost.hooks.patterns import CompileBudget
from wavehost.hooks.settings_files import kind_of

MAX_FILES = 256  # per folder tree: a hostile tree cannot make every load slow
TILDE = (
    'cwd "{cwd}" is not expanded (as in Copilot CLI): the hook runs in the folder "{cwd}" of '
    "the session folder and cannot start unless it exists"
)
NESTED_TOO_DEEP = "Nested hooks deeper than one level are not supported"
DISABLED = "disableAllHooks is true here: every Copilot CLI hook is off, the user's too"

MAX_DEPTH = 8
SHELL_KEYS = ("bash", "powershell", "command")
ENTRY_KEYS = frozenset(
    {"type", *SHELL_KEYS, "exec", "args", "cwd", "env", "timeoutSec", "timeout", "matcher"}
)


def hook_files(root: Path) -> tuple[list[Path], list[Path], bool]:
    """The `*.json` files under `root` in Copilot's order, the folders seen, and whether the
    tree was cut short (too many files or too deep)."""
    files: list[Path] = []
    folders: list[Path] = []
    cut = False

    def walk(folder: Path, depth: int) -> None:
        nonlocal cut
        try:
            entries = sorted(os.scandir(folder), key=lambda e: os.fsencode(e.name), reverse=True)
        except OSError:
            return
        folders.append(folder)
        subfolders: list[Path] = []
        for entry in entries:
            if entry.name.startswith("."):
                continue  # dot-files and dot-folders are not read (as in Copilot)
            try:
                if entry.is_dir(follow_symlinks=False):
                    subfolders.append(Path(entry.path))
                elif entry.name.endswith(".json"):  # not a regular file: the read says so
                    if len(files) >= MAX_FILES:
                        cut = True
                        return
                    files.append(Path(entry.path))
            except OSError:
                continue
        for sub in subfolders:
            if depth + 1 > MAX_DEPTH:
                cut = True
                continue
            walk(sub, depth + 1)

    if root.is_dir():
        walk(root, 0)
    return files, folders, cut


class Rejected(Exception):  # noqa: N818 - the file, not an error of ours
    """What makes Copilot reject a whole file: `(pointer, message)`."""


@dataclass
class _FileReader:
    source: Source
    path: Path
    untrusted: bool
    settings: bool = False  # a settings file's `hooks`: strict, and no $COPILOT_HOOK_DIR
    budget: CompileBudget = field(default_factory=CompileBudget)  # shared by a folder tree's files
    handlers: list[HookHandler] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def problem(self, pointer: str, message: str) -> None:
        self.diagnostics.append(Diagnostic(str(self.path), pointer, message))

    def bad_entry(self, pointer: str, message: str) -> None:
        """An entry Copilot skips in a hooks file and rejects all hooks of a settings file for."""
        if self.settings:
            raise Rejected(pointer, message)
        self.problem(pointer, message)

    def read(self, hooks: Mapping[str, Any]) -> None:
        camel: list[HookHandler] = []
        pascal: list[HookHandler] = []
        for key, entries in hooks.items():
            event = EVENT_KEYS.get(key)
            where = pointer_join("hooks", key)
            if event is None:
                self.problem(where, f'unknown Copilot hook event "{key}"; it is ignored')
                continue
            before = len(self.handlers)
            for index, entry in enumerate(entries):
                self._entry(event, key, entry, ("hooks", key, index))
            (pascal if is_pascal(key) else camel).extend(self.handlers[before:])
            del self.handlers[before:]
        # an event's camelCase entries run first
        self.handlers = identified(camel + pascal, self.source, str(self.path))

    def _entry(self, event: Event, key: str, raw: Any, at: tuple[str | int, ...]) -> None:
        where = pointer_join(*at)
        if not isinstance(raw, Mapping):
            self.bad_entry(where, f"a hook entry must be an object, not {kind_of(raw)}")
            return
        nested = raw.get("hooks")
        if isinstance(nested, list):
            group_matcher = raw.get("matcher")
            for index, inner in enumerate(nested):
                inner_at = (*at, "hooks", index)
                if isinstance(inner, Mapping) and isinstance(inner.get("hooks"), list):
                    raise Rejected(where, NESTED_TOO_DEEP)  # the whole file, as Copilot does
                self._handler(event, key, inner, inner_at, group_matcher, where)
            return
        self._handler(event, key, raw, at, None, None)

    def _handler(
        self,
        event: Event,
        key: str,
        raw: Any,
        at: tuple[str | int, ...],
        group_matcher: Any,
        group: str | None,
    ) -> None:
        where = pointer_join(*at)
        if not isinstance(raw, Mapping):
            self.bad_entry(where, f"a hook entry must be an object, not {kind_of(raw)}")
            return
        problem = _entry_error(raw)
        if problem is not None:
            field_name, message = problem
            self.bad_entry(where + (f"/{field_name}" if field_name else ""), message)
            return
        source = group_matcher if group_matcher is not None else raw.get("matcher")
        matcher_at = (
            (group or where) + "/matcher" if group_matcher is not None else where + "/matcher"
        )
        if source is not None and not isinstance(source, str):
            self.bad_entry(matcher_at, f"matcher must be a string, not {kind_of(source)}")
            return
        try:
            matcher = compile_matcher(source, event, key, self.budget)
        except MatcherError as err:
            if source == "":
                self.bad_entry(matcher_at, f"{err}; the hook is skipped")
            else:  # an invalid regex: Copilot skips that hook alone, even in a settings file
                self.problem(matcher_at, f"{err}; the hook is skipped")
            return
        cwd = raw.get("cwd")
        if isinstance(cwd, str) and cwd.startswith("~"):
            self.problem(where + "/cwd", TILDE.format(cwd=cwd))
        argv, shell, display = _command(raw)
        timeout = raw.get("timeoutSec", raw.get("timeout"))
        content = fingerprint(key, group_matcher, raw)
        env = raw.get("env")
        self.handlers.append(
            HookHandler(
                id="",  # see `identified`
                event=event,
                matcher=matcher,
                command=display,
                source=self.source,
                path=self.path,
                pointer=where,
                fingerprint=content,
                timeout=float(timeout) if timeout is not None else None,
                description=raw.get("comment") if isinstance(raw.get("comment"), str) else None,
                untrusted=self.untrusted,
                dialect="copilot",
                key=key,
                group_pointer=group,
                argv=argv,
                shell=shell,
                cwd=cwd,
                env=dict(env) if isinstance(env, Mapping) else None,
                hook_dir=None if self.settings else self.path.parent,
                condition=CONDITIONS.get(event),
            )
        )


def _entry_error(raw: Mapping[str, Any]) -> tuple[str, str] | None:
    kind = raw.get("type", "command")
    if kind in ("http", "prompt"):
        return "type", f'Copilot "{kind}" hooks are not supported here; only command hooks run'
    if kind != "command":
        return "type", '"type" must be "command", "http" or "prompt"'
    shells = [k for k in SHELL_KEYS if k in raw]
    if "exec" in raw:
        if shells:
            return "exec", f'"exec" cannot be combined with "{shells[0]}"'
        if not isinstance(raw["exec"], str) or not raw["exec"].strip():
            return "exec", '"exec" must be a non-empty string'
        args = raw.get("args", [])
        if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
            return "args", '"args" must be a list of strings'
    elif not shells:
        return "", 'a hook needs "bash", "command", "powershell" or "exec"'
    for name in shells:
        if not isinstance(raw[name], str) or not raw[name].strip():
            return name, f'"{name}" must be a non-empty string'
    for name in ("timeoutSec", "timeout"):
        value = raw.get(name)
        if name in raw and (
            isinstance(value, bool) or not isinstance(value, int | float) or value <= 0
        ):
            return name, f'"{name}" must be a positive number of seconds'
    env = raw.get("env")
    if "env" in raw:
        if not isinstance(env, Mapping):
            return "env", '"env" must be an object of names to strings'
        for name, value in env.items():
            if not isinstance(value, str):
                return f"env/{name}", f'env "{name}" must be a string'
    if "cwd" in raw and not isinstance(raw["cwd"], str):
        return "cwd", '"cwd" must be a string'
    return None


def _command(raw: Mapping[str, Any]) -> tuple[tuple[str, ...] | None, str | None, str]:
    """(argv for `exec`, the shell, what to show): `bash` wins over `command`, which runs under
    bash too; a `powershell`-only entry needs `pwsh`."""
    if "exec" in raw:
        argv = (raw["exec"], *raw.get("args", []))
        return argv, None, shlex.join(argv)
    for key, shell in (("bash", "bash"), ("command", "bash"), ("powershell", "pwsh")):
        if key in raw:
            return None, shell, raw[key]
    raise AssertionError("validated entries have a command")


def _read_file(
    source: Source,
    path: Path,
    untrusted: bool,
    *,
    settings: bool = False,
    budget: CompileBudget | None = None,
    within: Path | None = None,
) -> tuple[ConfigFile, _FileReader, Any]:
    """The file as listed, its hooks, and its JSON (None when it is unusable). `within`: the
    project a project file must not lead out of."""
    reader = _FileReader(source, path, untrusted, settings, budget or CompileBudget())
    loaded = read_config(
        source, path, dialect="copilot", untrusted=untrusted, empty={}, within=within
    )
    document = loaded.document
    problem = _shape_error(document, settings) if document is not None else None
    if problem is None:
        try:
            handlers_of(reader, document)
        except Rejected as rejected:
            pointer, message = rejected.args
            reader.handlers.clear()
            problem = f"{pointer}: {message}; the file's hooks are ignored"
    if problem is not None:
        loaded = failed_file(loaded, problem)
    reader.diagnostics[:0] = loaded.diagnostics
    return loaded.file, reader, loaded.document


def _shape_error(document: Any, settings: bool) -> str | None:
    """Why Copilot rejects this file as a whole, if it does."""
    if not isinstance(document, dict):
        return "Expected hook config to be an object"
    if not settings and document.get("version", 1) != 1:
        return f"Invalid hook config version {document.get('version')!r}; expected 1"
    if "hooks" in document and not isinstance(document["hooks"], dict):
        return '"hooks" must be an object of events'
    bad = [k for k, v in document.get("hooks", {}).items() if not isinstance(v, list)]
    if bad:
        return f'hook event value must be an array ("{bad[0]}"); the file is ignored'
    return None


def handlers_of(reader: _FileReader, document: Any) -> None:
    """Raises `Rejected` when the file is rejected whole."""
    if isinstance(document, dict) and document.get("disableAllHooks") is not True:
        hooks = document.get("hooks", {})
        if isinstance(hooks, dict) and all(isinstance(v, list) for v in hooks.values()):
            reader.read(hooks)


def handlers_in(source: Source, path: Path, document: Any) -> list[HookHandler]:
    """The hooks a Copilot hooks document at `path` defines, with the ids a list gives them
    (read leniently: an entry's id does not depend on its neighbours)."""
    reader = _FileReader(source, path, untrusted=False)
    try:
        handlers_of(reader, document)
    except Rejected:
        return []
    return reader.handlers


def _tree(
    source: Source, root: Path, untrusted: bool, within: Path | None = None
) -> Iterator[tuple[ConfigFile, _FileReader] | Diagnostic | Path]:
    leads = paths.outside(within, root) if within is not None and root.exists() else None
    if leads is not None:  # `.github/hooks` linked to `/`: nothing under it is the project's
        yield Diagnostic(str(root), None, f"leads out of the project (to {leads}): not read")
        return
    files, folders, cut = hook_files(root)
    yield from folders
    budget = CompileBudget()  # one for the tree: 256 files cannot each compile a budget's worth
    for path in files:
        file, reader, _ = _read_file(source, path, untrusted, budget=budget, within=within)
        yield file, reader
    if cut:
        message = (
            f"more than {MAX_FILES} files or {MAX_DEPTH} levels of folders: the rest is ignored"
        )
        yield Diagnostic(str(root), None, message)


def load(project_dir: Path | None, home: Path | None, trusted: bool) -> DialectSources:
    handlers: list[HookHandler] = []
    files: list[ConfigFile] = []
    diagnostics: list[Diagnostic] = []
    folders: set[Path] = set()
    disabled_by: Path | None = None

    def add(file: ConfigFile, reader: _FileReader) -> None:
        files.append(file)
        handlers.extend(reader.handlers)
        diagnostics.extend(reader.diagnostics)

    def folder(source: Source, root: Path) -> None:
        within = project_dir if source == "project" else None
        if within is None or paths.outside(within, root) is None:
            folders.add(root)  # watched; never a folder outside the project
        for item in _tree(source, root, not trusted and source == "project", within):
            if isinstance(item, Path):
                folders.add(item)
            elif isinstance(item, Diagnostic):
                diagnostics.append(item)
            else:
                add(*item)

    def settings(source: Source, path: Path) -> Any:
        untrusted = not trusted and source == "project"
        within = project_dir if source == "project" else None
        file, reader, document = _read_file(source, path, untrusted, settings=True, within=within)
        add(file, reader)  # listed (and watched) even before it exists, as Wave's files are
        return None if untrusted else document

    folder("user", paths.copilot_user_hooks(home))
    settings("user", paths.copilot_user_settings(home))  # its disableAllHooks changes nothing
    if project_dir is not None:
        folder("project", paths.copilot_project_hooks(project_dir))
        for path in paths.copilot_project_settings(project_dir):
            document = settings("project", path)
            if isinstance(document, dict) and document.get("disableAllHooks") is True:
                disabled_by = disabled_by or path
    if disabled_by is not None:
        diagnostics.append(Diagnostic(str(disabled_by), "/disableAllHooks", DISABLED))
        handlers = [dataclasses.replace(h, disabled=True) for h in handlers]
    return DialectSources(tuple(handlers), tuple(files), tuple(diagnostics), frozenset(folders))
