"""Edit: replaces a text in a file."""

from wavehost.hooks.tools.spec import ChatTool, ToolName

EDIT = ChatTool(
    name="Edit",
    summary="Replaces a text in a file (once, or every occurrence)",
    sample={"file_path": "{project}/notes.txt", "old_string": "hello", "new_string": "hi"},
    offered=True,
    copilot=ToolName(
        "edit",
        {"file_path": "path", "old_string": "old_str", "new_string": "new_str"},
        aliases=("str_replace_editor", "apply_patch"),
    ),
    snow=ToolName(
        "filesystem-edit",
        {
            "file_path": "filePath",
            "old_string": "searchContent",
            "new_string": "replaceContent",
            "replace_all": "replaceAll",
        },
        aliases=("filesystem-edit_search", "filesystem-replaceedit"),
    ),
    if_field="file_path",
    change="edit",
)
