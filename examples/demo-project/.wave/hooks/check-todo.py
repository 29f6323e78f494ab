"""PostToolUse on Write|Edit: JSON additionalContext reaches the model without being an error."""

import json
import sys

payload = json.load(sys.stdin)
text = payload.get("tool_input", {}).get("content") or payload.get("tool_input", {}).get(
    "new_string", ""
)
if "TODO" in text:
    context = f"{payload['tool_input']['file_path']} now contains a TODO; track it in the issue."
    output = {"hookEventName": "PostToolUse", "additionalContext": context}
    print(json.dumps({"hookSpecificOutput": output}))
