"""NotebookEdit: Claude Code's, not offered by wavehost (a hook may name it)."""

from wavehost.hooks.tools.spec import ChatTool

NOTEBOOK_EDIT = ChatTool(
    name="NotebookEdit",
    summary="Replaces a cell of a Jupyter notebook",
    sample={"notebook_path": "{project}/analysis.ipynb", "new_source": "print('hello')"},
    offered=False,
)
