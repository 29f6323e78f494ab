"""PreToolUse on Bash: exit 2 blocks the tool and the model sees stderr as the tool's error."""

import json
import re
import sys

payload = json.load(sys.stdin)
command = payload.get("tool_input", {}).get("command", "")
if re.search(r"\brm\s+-[a-zA-Z]*r[a-zA-Z]*f|\bgit\s+push\s+--force\b", command):
    print(f"Refusing a destructive command: {command}", file=sys.stderr)
    sys.exit(2)
