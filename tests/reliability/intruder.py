"""Another local user's attempt on a `wavehost web` port (stdlib only: run as `nobody`).

    python3 intruder.py PORT [TOKEN]

Tries the page, an asset and the WebSocket with a same-origin `Origin` header (what a local
process can always send), first bare, then with every token-looking string it can find in other
processes' command lines and environments, then with TOKEN if given. Prints a JSON report.
"""

import http.client
import json
import os
import re
import sys

CANDIDATE = re.compile(rb"token[=: ]+([A-Za-z0-9_-]{16,256})", re.IGNORECASE)


def status(port: int, path: str, headers: dict[str, str]) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}", **headers})
        return connection.getresponse().status
    finally:
        connection.close()


def attempts(port: int, token: str | None) -> dict[str, int]:
    origin = {"Origin": f"http://127.0.0.1:{port}"}
    upgrade = {
        **origin,
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    }
    query = f"?token={token}" if token else ""
    return {
        "page": status(port, f"/{query}", origin),
        "asset": status(port, f"/assets/webview.js{query}", origin),
        "socket": status(port, f"/ws{query}", upgrade),
    }


def found_tokens() -> set[str]:
    found: set[str] = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        for name in ("cmdline", "environ"):
            try:
                with open(f"/proc/{pid}/{name}", "rb") as file:
                    data = file.read(1 << 20).replace(b"\0", b" ")
            except OSError:
                continue
            found |= {m.decode() for m in CANDIDATE.findall(data)}
    return found


def main() -> None:
    port = int(sys.argv[1])
    given = sys.argv[2] if len(sys.argv) > 2 else None
    tokens = found_tokens()
    report = {
        "uid": os.getuid(),
        "bare": attempts(port, None),
        "guessed": attempts(port, "A" * 43),
        "found": len(tokens),
        "admitted_with_found": [t[:4] for t in tokens if attempts(port, t)["page"] != 403],
        "given": attempts(port, given) if given else None,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
