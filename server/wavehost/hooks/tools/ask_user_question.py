"""AskUserQuestion: the model asks the user to choose."""

from wavehost.hooks.tools.spec import Args, ChatTool, ToolName


def _snow_args(wave: Args) -> Args:
    """`{questions: [{question, options: [{label}]}]}` as Snow's `{question, options: [label…]}`
    (its first question)."""
    questions = wave.get("questions")
    first = questions[0] if isinstance(questions, list) and questions else {}
    first = first if isinstance(first, dict) else {}
    options = first.get("options")
    options = options if isinstance(options, list) else []
    labels = [o.get("label", "") if isinstance(o, dict) else str(o) for o in options]
    return {"question": first.get("question", ""), "options": labels}


ASK_USER_QUESTION = ChatTool(
    name="AskUserQuestion",
    summary="Asks the user one to four questions, each with two to four choices",
    sample={
        "questions": [
            {
                "question": "Which database should the service use?",
                "header": "Database",
                "options": [
                    {"label": "PostgreSQL", "description": "A server of its own"},
                    {"label": "SQLite", "description": "One file beside the service"},
                ],
                "multiSelect": False,
            }
        ]
    },
    offered=True,
    copilot=ToolName("ask_user"),
    snow=ToolName("askuser-ask_question", render=_snow_args),
)
