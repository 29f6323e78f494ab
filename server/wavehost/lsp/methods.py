"""Names of wavehost's custom LSP methods.

Kept apart from the pydantic models so the server can register its handlers without importing
pydantic at start-up (start time is measured against a bare pygls server).
"""

HOOKS_LIST = "wave/hooks/list"
HOOKS_DELETE = "wave/hooks/delete"
HOOKS_PREFILL = "wave/hooks/prefill"
HOOKS_CHANGED = "wave/hooks/changed"
OPEN_CONFIG_FILE = "wave/openConfigFile"

CHAT_OPEN = "wave/chat/open"
CHAT_SEND = "wave/chat/send"
CHAT_CANCEL = "wave/chat/cancel"
CHAT_COMPACT = "wave/chat/compact"
CHAT_UPDATED = "wave/chat/updated"
CHAT_REQUEST_PERMISSION = "wave/chat/requestPermission"
