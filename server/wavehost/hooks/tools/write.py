"""Write: a whole file, created or replaced."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

WRITE = ChatTool(
    name="Write",
    summary="Creates a file, or replaces its whole content",
    sample={"file_path": "{project}/notes.txt", "content": "hello\n"},
    offered=True,
    copilot=ToolName("create", {"file_path": "path", "content": "file_text"}),
    snow=ToolName("filesystem-create", {"file_path": "filePath"}),
    if_field="file_path",
    change="write",
)
