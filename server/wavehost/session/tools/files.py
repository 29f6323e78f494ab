"""Read, Write and Edit: Claude Code's file tools, acting on the real workspace.

File I/O runs in a worker thread so a large file never stalls the session's event loop.
"""

from pathlib import Path
from typing import Any, TypeVar

import anyio
from pydantic import Field

from wavehost.hooks.tools.edit import EDIT
from wavehost.hooks.tools.read import READ
from wavehost.hooks.tools.write import WRITE
from wavehost.session.tools.base import Tool, ToolError, ToolInput, ToolResult, Workspace
from wavehost.session.tools.patch import structured_patch

DEFAULT_READ_LINES = 2000
MAX_LINE_CHARS = 2000


class _FileInput(ToolInput):
    file_path: str = Field(description="The absolute path to the file")


FileInputT = TypeVar("FileInputT", bound=_FileInput)


class _FileTool(Tool[FileInputT]):
    """The file tools report the file they touched, on failure too."""

    def failure_fields(self, args: FileInputT, workspace: Workspace) -> dict[str, Any]:
        return {"filePath": str(workspace.resolve(args.file_path))}


class ReadInput(_FileInput):
    offset: int | None = Field(None, ge=1, description="The line number to start reading from")
    limit: int | None = Field(None, ge=1, description="The number of lines to read")


def _numbered(lines: list[str], start: int) -> str:
    def clip(line: str) -> str:
        return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS] + "…"

    return "\n".join(f"{n:>6}\t{clip(line)}" for n, line in enumerate(lines, start))


def _read_text(path: Path) -> str:
    if path.is_dir():
        raise ToolError(f"EISDIR: illegal operation on a directory, read '{path}'")
    if not path.exists():
        raise ToolError(f"File does not exist: {path}")
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        raise ToolError(f"{path} is a binary file; Read shows text files only")
    return data.decode("utf-8", errors="replace")


class Read(_FileTool[ReadInput]):
    name = READ.name
    kind = "read"
    description = (
        "Reads a file from the local filesystem. Lines are numbered from 1 (cat -n format). "
        "By default up to 2000 lines from the start; use offset and limit for long files."
    )
    input_model = ReadInput

    async def run(self, args: ReadInput, workspace: Workspace) -> ToolResult:
        path = workspace.resolve(args.file_path)
        text = await anyio.to_thread.run_sync(_read_text, path)
        lines = text.splitlines()
        start = args.offset or 1
        chosen = lines[start - 1 : start - 1 + (args.limit or DEFAULT_READ_LINES)]
        if not lines:
            shown = "<system-reminder>The file exists but its contents are empty.</system-reminder>"
        elif not chosen:
            shown = f"<system-reminder>The file has only {len(lines)} lines.</system-reminder>"
        else:
            shown = _numbered(chosen, start)
        file = {
            "filePath": str(path),
            "content": "\n".join(chosen),
            "numLines": len(chosen),
            "startLine": start,
            "totalLines": len(lines),
        }
        # Claude Code's shape ({type, file: {…}}), with the seed's success and filePath on top
        return ToolResult.success(shown, filePath=str(path), type="text", file=file)


class WriteInput(_FileInput):
    content: str = Field(description="The content to write to the file")


def _write(path: Path, content: str) -> str | None:
    """Write the file (making its directories); what it held before (None: it was new)."""
    if path.is_dir():
        raise ToolError(f"EISDIR: {path} is a directory")
    original = _read_text(path) if path.exists() else None
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content, encoding="utf-8")
    return original


def _change(path: Path, original: str | None, content: str) -> dict[str, Any]:
    """The `tool_response` fields Claude Code gives Write and Edit hooks."""
    return {
        "filePath": str(path),
        "type": "create" if original is None else "update",
        "content": content,
        "originalFile": original,
        # a new file has no patch (Claude Code's `[]`): its content is all there is
        "structuredPatch": [] if original is None else structured_patch(original, content),
        "userModified": False,  # nobody edits the change before it is applied here
    }


def modified_by_hook(response: dict[str, Any]) -> str | None:
    """What Claude Code tells the model when a PostToolUse hook changed the file a Write or Edit
    just wrote (a formatter, say): its additional context, None while the file is as written."""
    path, written = response.get("filePath"), response.get("content")
    if not isinstance(path, str) or not isinstance(written, str):
        return None
    try:
        now = Path(path).read_bytes().decode("utf-8", errors="replace")
    except OSError:
        return None
    if now == written:
        return None
    return (
        f"PostToolUse hook modified {path} after your edit (likely a formatter). Your next Edit "
        "will not fail with a stale-file error, but if its old_string targets a region the hook "
        "reformatted, Read the file first."
    )


class Write(_FileTool[WriteInput]):
    name = WRITE.name
    kind = "edit"
    description = "Writes a file to the local filesystem, replacing it if it exists."
    input_model = WriteInput

    async def run(self, args: WriteInput, workspace: Workspace) -> ToolResult:
        path = workspace.resolve(args.file_path)
        original = await anyio.to_thread.run_sync(_write, path, args.content)
        text = (
            f"The file {path} has been updated."
            if original is not None
            else f"File created successfully at: {path}"
        )
        return ToolResult.success(text, **_change(path, original, args.content))


class EditInput(_FileInput):
    old_string: str = Field(description="The text to replace")
    new_string: str = Field(description="The text to replace it with")
    replace_all: bool = Field(False, description="Replace every occurrence of old_string")


def _edit(path: Path, args: EditInput) -> tuple[int, str | None, str]:
    """Apply the edit: the number of replacements made, the text before and after."""
    if args.old_string == args.new_string:
        raise ToolError("No changes to make: old_string and new_string are exactly the same.")
    if not path.exists():
        if args.old_string == "":  # Claude Code: an empty old_string creates the file
            _write(path, args.new_string)
            return 1, None, args.new_string
        raise ToolError(f"File does not exist: {path}")
    text = _read_text(path)
    if args.old_string == "":
        raise ToolError("Cannot create a new file: the file already exists.")
    count = text.count(args.old_string)
    if count == 0:
        raise ToolError(f"String to replace not found in file.\nString: {args.old_string}")
    if count > 1 and not args.replace_all:
        raise ToolError(
            f"Found {count} matches of the string to replace, but replace_all is false. To "
            "replace all occurrences, set replace_all to true. To replace only one occurrence, "
            f"please provide more context to uniquely identify the instance.\n"
            f"String: {args.old_string}"
        )
    edited = text.replace(args.old_string, args.new_string)
    path.write_text(edited, encoding="utf-8")
    return count, text, edited


class Edit(_FileTool[EditInput]):
    name = EDIT.name
    kind = "edit"
    description = (
        "Performs exact string replacements in a file. old_string must be unique in the file "
        "unless replace_all is true."
    )
    input_model = EditInput

    async def run(self, args: EditInput, workspace: Workspace) -> ToolResult:
        path = workspace.resolve(args.file_path)
        count, original, edited = await anyio.to_thread.run_sync(_edit, path, args)
        return ToolResult.success(
            f"The file {path} has been updated ({count} replacement{'s' * (count != 1)}).",
            **_change(path, original, edited),
            oldString=args.old_string,
            newString=args.new_string,
            replaceAll=args.replace_all,
            replacements=count,
        )
