"""Read: a file's lines."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

READ = ChatTool(
    name="Read",
    summary="Reads a file (a range of its lines)",
    sample={"file_path": "{project}/README.md"},
    offered=True,
    copilot=ToolName("view", {"file_path": "path"}),
    snow=ToolName("filesystem-read", {"file_path": "filePath", "offset": "startLine"}),
    if_field="file_path",
)
