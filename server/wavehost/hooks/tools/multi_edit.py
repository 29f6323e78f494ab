"""MultiEdit: Claude Code's, not offered by wavehost (a hook may name it)."""

from wavehost.hooks.tools.spec import ChatTool

MULTI_EDIT = ChatTool(
    name="MultiEdit",
    summary="Makes several replacements in one file",
    sample={
        "file_path": "{project}/notes.txt",
        "edits": [{"old_string": "hello", "new_string": "hi"}],
    },
    offered=False,
)
