"""The JetBrains plugin's zip, as far as it is built here (scripts/package-jetbrains): every step
that needs no IntelliJ SDK — the server bundle in `lib/server`, the webview — laid out as the
Gradle build packs it, and the bundle the plugin starts from there serving a real hooks list."""

import json
import re
from pathlib import Path

import pytest

from tests.checkout import built
from tests.test_bundle import demo, interpreters, serve  # noqa: F401 (demo: a fixture)

REPO = Path(__file__).resolve().parents[1]
PLUGIN = REPO / "extension-jetbrains" / "plugin"
LAUNCHER_KT = (
    REPO / "extension-jetbrains/core/src/main/kotlin/dev/wavehost/jetbrains/core/launcher"
    / "ServerLauncher.kt"
)  # fmt: skip


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """WAVEHOST_JETBRAINS_LAYOUT: the one scripts/test-jetbrains made; else made here."""
    out = tmp_path_factory.mktemp("jetbrains") / "layout"
    script = ["bash", str(REPO / "scripts/package-jetbrains"), "--layout-only"]
    return built("WAVEHOST_JETBRAINS_LAYOUT", out, script)


def test_the_zip_layout_holds_the_server_bundle_in_lib_server_and_the_webview(
    layout: Path,
) -> None:
    server = layout / "lib" / "server"
    assert sorted(p.name for p in (layout / "lib").iterdir()) == ["server"]  # jars: Gradle's
    assert (server / "launch.py").read_bytes() == (REPO / "scripts/bundle/launch.py").read_bytes()
    manifest = json.loads((server / "bundle.json").read_text())
    assert manifest["platform"] == "linux-x64"
    assert sorted(manifest["pythons"]) == ["3.11", "3.12", "3.13", "3.14"]
    for folders in manifest["pythons"].values():
        assert all((server / folder).is_dir() for folder in folders)
    assert (server / "libs/common/wavehost/cli.py").is_file()
    assert (server / "libs/cp313/aiohttp").is_dir()  # the chat providers' HTTP client
    assert (layout / "webview/index.html").is_file()
    assert (layout / "webview/assets/webview.js").is_file()


def test_the_gradle_build_packs_that_layout_where_the_plugin_looks_for_it() -> None:
    constant = re.search(r'const val SERVER = "([^"]+)"', LAUNCHER_KT.read_text())
    assert constant is not None
    assert constant[1] == "lib/server"  # PluginLayout.SERVER: where the plugin starts the server
    gradle = (PLUGIN / "build.gradle.kts").read_text()
    assert 'layout.projectDirectory.dir("build/layout")' in gradle
    assert (
        'from(packaged.dir("lib/server")) { into(pluginName.map { "$it/lib/server" }) }' in gradle
    )
    assert 'from(packaged.dir("webview")) { into("webview") }' in gradle
    script = (REPO / "scripts/package-jetbrains").read_text()
    assert "${1:-$root/extension-jetbrains/plugin/build/layout}" in script  # its default OUT


def test_the_laid_out_bundle_serves_the_hooks_list(layout: Path, demo: tuple[Path, Path]) -> None:  # noqa: F811
    project, home = demo
    # A CPython of this machine without wavehost installed, as a user's would be.
    python = next(iter(interpreters(["3.11", "3.12", "3.13", "3.14"]).values()))
    code, answers, stderr = serve(python, layout / "lib" / "server", project, home)
    assert code == 0, stderr
    listed = next(a for a in answers if a.get("id") == 2)["result"]
    assert len(listed["hooks"]) == 4
