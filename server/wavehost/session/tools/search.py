"""Glob and Grep: finding files and text in the workspace (Claude Code's inputs and modes).

Both walk the tree in a worker thread, newest files first as Claude Code lists them, and skip
version-control and dependency folders that would drown the results. Grep's pattern is
ripgrep's syntax, run by RE2 (`grep_pattern`: a hostile pattern costs linear time and never
holds the GIL); it reads regular files only, line by line, and skips binary ones (a NUL byte in
the first 8 KB), as ripgrep does. A search stops after `GREP_TIMEOUT` (RE2's time is linear in
the line but grows with the pattern: `(\\w|\\s){400}!` takes seconds per megabyte), and as soon
as its turn is interrupted; what it found by then is the result, or an error when it found
nothing, as Claude Code's Grep does.
"""

import fnmatch
import os
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

import anyio
from pydantic import Field

from wavehost.hooks.tools.glob import GLOB
from wavehost.hooks.tools.grep import GREP
from wavehost.session.tools.base import Tool, ToolError, ToolInput, ToolResult, Workspace
from wavehost.session.tools.grep_pattern import GrepPattern, GrepPatternError, compile_pattern

RESULT_LIMIT = 100
GREP_TIMEOUT = 20.0  # seconds, Claude Code's for its ripgrep
TIMED_OUT = (
    f"Grep timed out after {GREP_TIMEOUT:g} seconds. The search may have matched files but did "
    "not complete in time. Try searching a more specific path or pattern."
)
CUT_SHORT = f"(Grep timed out after {GREP_TIMEOUT:g} seconds: the results may be incomplete.)"
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv"})


def _search_root(path: str | None, workspace: Workspace) -> Path:
    root = workspace.resolve(path) if path else workspace.spawn_dir()
    if not root.exists():
        raise ToolError(f"Path does not exist: {root}")
    return root


def _newest_first(paths: list[Path]) -> list[Path]:
    def mtime(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(paths, key=lambda p: (-mtime(p), str(p)))


def _walk(root: Path) -> Iterator[Path]:
    if root.is_file():
        yield root
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            yield Path(folder) / name


class GlobInput(ToolInput):
    pattern: str = Field(description='The glob pattern to match files against, e.g. "**/*.py"')
    path: str | None = Field(None, description="The directory to search in (default: the cwd)")


def _glob(root: Path, pattern: str) -> list[Path]:
    if Path(pattern).is_absolute():
        root, pattern = Path("/"), pattern.lstrip("/")  # Path.glob takes relative patterns
    skipped = SKIPPED_DIRS.intersection
    found = [
        p for p in root.glob(pattern) if p.is_file() and not skipped(p.relative_to(root).parts[:-1])
    ]
    return _newest_first(found)


class Glob(Tool[GlobInput]):
    name = GLOB.name
    kind = "read"
    description = "Finds files by glob pattern (e.g. **/*.ts), newest first."
    input_model = GlobInput

    async def run(self, args: GlobInput, workspace: Workspace) -> ToolResult:
        root = _search_root(args.path, workspace)
        found = await anyio.to_thread.run_sync(_glob, root, args.pattern)
        truncated = len(found) > RESULT_LIMIT
        names = [str(p) for p in found[:RESULT_LIMIT]]
        text = "\n".join(names) if names else "No files found"
        if truncated:
            text += "\n(Results are truncated. Consider using a more specific path or pattern.)"
        return ToolResult.success(text, filenames=names, numFiles=len(names), truncated=truncated)


class GrepInput(ToolInput):
    pattern: str = Field(description="The regular expression to search for in file contents")
    path: str | None = Field(None, description="File or directory to search (default: the cwd)")
    glob: str | None = Field(None, description='Only files matching this glob, e.g. "*.py"')
    output_mode: Literal["content", "files_with_matches", "count"] = Field(
        "files_with_matches",
        description="content: matching lines; files_with_matches: file paths; count: per file",
    )
    case_insensitive: bool = Field(False, alias="-i", description="Case insensitive search")
    line_numbers: bool = Field(True, alias="-n", description="Show line numbers (content mode)")
    head_limit: int | None = Field(None, ge=1, description="Only the first N results")


BINARY_PROBE = 8192  # bytes looked at for a NUL: a binary file is not searched


def _hits(path: Path, pattern: GrepPattern, stop: Callable[[], bool]) -> list[tuple[int, str]]:
    """(line number, line) of each line that matches, until `stop()` says so; none for a file
    that is not a regular text file (opened without blocking: a FIFO, a device, `/dev/zero`
    through a link would block or never end)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return []
    with open(fd, "rb") as file:
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode) or b"\0" in file.read(BINARY_PROBE):
                return []
            file.seek(0)
            hits = []
            for number, raw in enumerate(file, 1):
                if stop():
                    break
                line = raw.rstrip(b"\n").rstrip(b"\r")
                if pattern.search(line):
                    hits.append((number, line.decode("utf-8", errors="replace")))
            return hits
        except OSError:
            return []


class Budget:
    """When a search must stop: `GREP_TIMEOUT` after it began, or once its turn is interrupted;
    `spent` says whether it did stop a search."""

    def __init__(self) -> None:
        self._deadline = time.monotonic() + GREP_TIMEOUT
        self.interrupted = threading.Event()
        self.spent = False

    def __call__(self) -> bool:
        if self.interrupted.is_set() or time.monotonic() > self._deadline:
            self.spent = True
        return self.spent


def _grep(root: Path, args: GrepInput, stop: Callable[[], bool]) -> tuple[list[str], list[str]]:
    """(result lines, files that matched), as far as the search got before `stop()`."""
    try:
        pattern = compile_pattern(args.pattern, ignore_case=args.case_insensitive)
    except GrepPatternError as err:
        raise ToolError(f"Invalid regular expression {args.pattern!r}: {err}") from None
    matched: list[Path] = []
    lines_out: dict[Path, list[str]] = {}
    for path in _walk(root):
        if stop():
            break
        if args.glob and not (
            fnmatch.fnmatch(path.name, args.glob) or fnmatch.fnmatch(str(path), args.glob)
        ):
            continue
        hits = _hits(path, pattern, stop)
        if hits:
            matched.append(path)
            if args.output_mode == "content":
                lines_out[path] = [
                    f"{path}:{n}:{line}" if args.line_numbers else f"{path}:{line}"
                    for n, line in hits
                ]
            elif args.output_mode == "count":
                lines_out[path] = [f"{path}:{len(hits)}"]
    ordered = _newest_first(matched)
    if args.output_mode == "files_with_matches":
        results = [str(p) for p in ordered]
    else:
        results = [line for p in ordered for line in lines_out[p]]
    return results, [str(p) for p in ordered]


class Grep(Tool[GrepInput]):
    name = GREP.name
    kind = "read"
    description = (
        "Searches file contents with a regular expression. output_mode files_with_matches "
        "(default) lists files, content shows matching lines, count counts per file."
    )
    input_model = GrepInput

    async def run(self, args: GrepInput, workspace: Workspace) -> ToolResult:
        root = _search_root(args.path, workspace)
        budget = Budget()
        try:  # an interrupted turn does not wait for the line being matched
            results, files = await anyio.to_thread.run_sync(
                _grep, root, args, budget, abandon_on_cancel=True
            )
        finally:
            budget.interrupted.set()
        cut = budget.spent
        if cut and not results:
            raise ToolError(TIMED_OUT)
        if args.head_limit is not None:
            results = results[: args.head_limit]
        if not results:
            text = "No matches found" if args.output_mode == "content" else "No files found"
        elif args.output_mode == "files_with_matches":
            text = f"Found {len(results)} file{'s' * (len(results) != 1)}\n" + "\n".join(results)
        else:
            text = "\n".join(results)
        if cut:
            text += "\n" + CUT_SHORT
        return ToolResult.success(
            text, mode=args.output_mode, filenames=files, numFiles=len(files), numLines=len(results)
        )
