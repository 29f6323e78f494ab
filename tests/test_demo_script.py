"""`bash scripts/demo`, the README's main command, as a person runs it in a terminal."""

import os
import re
import signal
import subprocess
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
URL = re.compile(r"at (http://127\.0\.0\.1:\d+/\?token=[\w-]+)")


def test_the_demo_serves_the_page_on_a_free_port_and_stops_quietly_on_ctrl_c(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    credentials = ("WAVE_PROVIDER", "ANTHROPIC_API_KEY", "OPENAI_API_KEY")
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAVEHOST_")}
    env = {k: v for k, v in env.items() if k not in credentials} | {"HOME": str(home)}
    demo = subprocess.Popen(
        ["bash", str(REPO / "scripts" / "demo")],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True,  # a terminal's foreground job: Ctrl-C goes to the whole group
    )  # fmt: skip
    assert demo.stdout is not None
    seen = []
    try:
        for line in demo.stdout:
            seen.append(line)
            if found := URL.search(line):
                break
        else:
            raise AssertionError(f"no address in {seen}")
        printed = "".join(seen)
        assert "the chat replays examples/demo-project/demo-chat.json" in printed
        assert "Project hooks (4)" in printed
        browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor())
        with browser.open(found.group(1), timeout=30) as page:
            assert 'data-shell="browser"' in page.read().decode()
    finally:
        os.killpg(demo.pid, signal.SIGINT)
        _, errors = demo.communicate(timeout=60)
    assert demo.returncode == 0
    assert "Traceback" not in errors
    assert "ERROR" not in errors
