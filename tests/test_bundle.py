"""The server bundle the IDE shells ship (scripts/bundle-server): every CPython 3.11+ on this
machine runs it; an interpreter that cannot gets one sentence that says what to do."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.checkout import built
from tests.lsp.client import frame, read_frame
from tests.workspace import write_json
from wavehost import paths

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "demo-project"
UNUSABLE = 3  # launch.py's exit status for an interpreter that cannot run the bundle


def interpreters(versions: list[str]) -> dict[str, Path]:
    """Python `X.Y` executables that run on this machine: pyenv's, or on PATH."""
    found: dict[str, Path] = {}
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for version in versions:
        candidates = [str(p) for p in sorted(pyenv.glob(f"{version}.*/bin/python{version}"))]
        candidates += [c for c in [shutil.which(f"python{version}")] if c]
        for candidate in candidates:
            check = "import sys; print('%d.%d' % sys.version_info[:2])"
            ran = subprocess.run([candidate, "-c", check], capture_output=True, text=True)
            if ran.returncode == 0 and ran.stdout.strip() == version:
                found[version] = Path(candidate)
                break
    return found


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """WAVEHOST_BUNDLE: one already built from this tree (scripts/test reuses the extension's)."""
    dest = tmp_path_factory.mktemp("bundle") / "server"
    builder = [sys.executable, str(ROOT / "scripts/bundle/build.py"), "build"]
    return built("WAVEHOST_BUNDLE", dest, builder)


def serve(python: Path, bundle: Path, project: Path, home: Path) -> tuple[int, list[Any], str]:
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "capabilities": {}, "initializationOptions": {"projectDir": str(project)}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "wave/hooks/list", "params": {}},
    ]  # fmt: skip
    server = subprocess.Popen(
        [str(python), str(bundle / "launch.py"), "serve", "--stdio"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "HOME": str(home), "PYTHONPATH": ""},
    )
    assert server.stdin
    assert server.stdout
    assert server.stderr
    server.stdin.write(b"".join(map(frame, requests)))
    server.stdin.flush()
    answers: list[Any] = []
    while (message := read_frame(server.stdout)) is not None:
        answers.append(message)
        if message.get("id") == 2:
            server.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown"}))
            server.stdin.write(frame({"jsonrpc": "2.0", "method": "exit"}))
            server.stdin.close()
    code = server.wait(timeout=60)
    return code, answers, server.stderr.read().decode()


@pytest.fixture
def demo(tmp_path: Path) -> tuple[Path, Path]:
    project = tmp_path / "demo"
    shutil.copytree(EXAMPLE, project)
    home = tmp_path / "home"
    home.mkdir()
    return project, home


def test_the_bundle_has_a_lib_folder_for_each_python(bundle: Path) -> None:
    manifest = json.loads((bundle / "bundle.json").read_text())
    assert manifest["platform"] == "linux-x64"
    assert list(manifest["pythons"]) == ["3.11", "3.12", "3.13", "3.14"]
    for folders in manifest["pythons"].values():
        assert all((bundle / folder).is_dir() for folder in folders)
    assert (bundle / "libs/cp313/pydantic_core").is_dir()
    assert (bundle / "libs/common/wavehost/hooks/settings.schema.json").is_file()
    assert (bundle / "libs/cp313/aiohttp").is_dir()  # the chat providers' HTTP client


def serve_with(
    version: str, bundle: Path, demo: tuple[Path, Path]
) -> tuple[Path, int, list[Any], str]:
    """`serve()` with python`version` from this machine (the test is skipped without one)."""
    python = interpreters([version]).get(version)
    if python is None:
        pytest.skip(f"no python{version} on this machine")
    return python, *serve(python, bundle, *demo)


@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13", "3.14"])
def test_each_supported_cpython_on_this_machine_serves_the_hooks_list(
    version: str, bundle: Path, demo: tuple[Path, Path]
) -> None:
    _, code, answers, stderr = serve_with(version, bundle, demo)
    listed = next(m["result"] for m in answers if m.get("id") == 2)
    assert [h["event"] for h in listed["hooks"]] == [
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "Stop",
    ], stderr
    assert code == 0, stderr


@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13", "3.14"])
def test_each_supported_cpython_reads_bash_commands_for_if_rules_with_the_bundled_parser(
    version: str, bundle: Path
) -> None:
    """tree-sitter is compiled per CPython (its bash grammar is abi3): each must load it."""
    python = interpreters([version]).get(version)
    if python is None:
        pytest.skip(f"no python{version} on this machine")
    folders = json.loads((bundle / "bundle.json").read_text())["pythons"][version]
    check = (
        "import sys; sys.path[:0] = sys.argv[1:]; "
        "from wavehost.hooks.dialects.wave.if_rules import simple_commands as read; "
        "print(read('cd repo && FOO=1 git push'))"
    )
    paths = [str(bundle / folder) for folder in folders]
    ran = subprocess.run([python, "-c", check, *paths], capture_output=True, text=True, env={})
    assert ran.stdout.strip() == "('cd repo', 'git push')", ran.stderr


@pytest.mark.parametrize("version", ["2.7", "3.6", "3.10"])
def test_a_too_old_python_gets_one_sentence_with_the_fix(
    version: str, bundle: Path, demo: tuple[Path, Path]
) -> None:
    python, code, answers, stderr = serve_with(version, bundle, demo)
    assert (code, answers) == (UNUSABLE, [])
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith(f"wavehost needs CPython 3.11 to 3.14; {python} is CPython {version}")
    assert "too old: choose a CPython 3.11 to 3.14 as the interpreter" in stderr


def test_libs_that_do_not_load_give_one_sentence_not_a_traceback(
    bundle: Path, demo: tuple[Path, Path], tmp_path: Path
) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(bundle, broken)
    version = f"cp{sys.version_info.major}{sys.version_info.minor}"
    for extension in (broken / "libs" / version / "pydantic_core").glob("_pydantic_core*.so"):
        extension.write_bytes(b"not an ELF file")
    code, answers, stderr = serve(Path(sys.executable), broken, *demo)
    assert (code, answers) == (UNUSABLE, [])
    assert stderr.count("\n") == 1, stderr
    assert stderr.startswith(f"The wavehost bundled in {broken} cannot load in {sys.executable}")
    assert "Traceback" not in stderr


def probe_stop_hook(bundle: Path, demo: tuple[Path, Path], values: str, **env: str) -> Any:
    """Runs `launch.py hooks run Stop` with a Stop hook that reports `values` (Python, evaluated in
    the hook's own process): what a hook the bundled server starts sees."""
    project, home = demo
    seen = project / "seen.json"
    script = f'import json, os, sys; json.dump({values}, open("{seen}", "w"))'
    probe = f"{sys.executable} -c '{script}'"
    write_json(paths.project_settings(project), {"hooks": {"Stop": [{"hooks": [
        {"type": "command", "command": probe}]}]}})  # fmt: skip
    subprocess.run(
        [sys.executable, str(bundle / "launch.py"), "hooks", "run", "Stop", "--project", project],
        input="{}",
        text=True,
        capture_output=True,
        check=True,
        env={**os.environ, "HOME": str(home), "PYTHONPATH": "", **env},
        timeout=60,
    )
    return json.loads(seen.read_text())


def test_hooks_started_by_the_bundled_server_do_not_see_its_libs(
    bundle: Path, demo: tuple[Path, Path]
) -> None:
    child_path, child_pythonpath = probe_stop_hook(
        bundle, demo, '[sys.path, os.environ.get("PYTHONPATH")]'
    )
    assert not any(str(bundle) in entry for entry in child_path)
    assert not child_pythonpath


def test_the_bundle_keeps_its_bytecode_even_under_dontwritebytecode_but_hooks_keep_the_variable(
    bundle: Path, demo: tuple[Path, Path], tmp_path: Path
) -> None:
    fresh = tmp_path / "fresh"
    shutil.copytree(bundle, fresh, ignore=shutil.ignore_patterns("__pycache__"))
    seen = probe_stop_hook(
        fresh,
        demo,
        '[os.environ.get("PYTHONDONTWRITEBYTECODE"), sys.dont_write_bytecode]',
        PYTHONDONTWRITEBYTECODE="1",
    )
    tag = sys.implementation.cache_tag
    assert (fresh / "libs/common/wavehost/__pycache__" / f"cli.{tag}.pyc").is_file()
    assert seen == ["1", True]


def test_the_first_start_after_an_install_compiles_nothing_up_to_the_first_hooks_list(
    bundle: Path, demo: tuple[Path, Path], tmp_path: Path
) -> None:
    """The bundle carries the bytecode of what `serve` loads up to its first list (built for this
    Python), valid although an install gives every source a new file time."""
    installed = tmp_path / "installed"
    shutil.copytree(bundle, installed)
    for source in installed.rglob("*.py"):
        os.utime(source)  # as unpacked from the vsix: the sources are newer than any bytecode
    tag = sys.implementation.cache_tag
    shipped = {pyc: pyc.read_bytes() for pyc in installed.rglob(f"__pycache__/*.{tag}.pyc")}
    server_pyc = installed / "libs/common/wavehost/lsp/__pycache__" / f"server.{tag}.pyc"
    assert int.from_bytes(shipped[server_pyc][4:8], "little") == 0b01  # hash-based, unchecked
    code, answers, stderr = serve(Path(sys.executable), installed, *demo)
    assert code == 0, stderr
    assert [a for a in answers if a.get("id") == 2 and "result" in a]
    compiled = sorted(
        str(pyc.relative_to(installed))
        for pyc in installed.rglob(f"__pycache__/*.{tag}.pyc")
        if shipped.get(pyc) != pyc.read_bytes()
    )
    assert compiled == []


def test_a_build_that_fails_leaves_the_bundle_there_as_it_was(bundle: Path, tmp_path: Path) -> None:
    """The bundle is made beside DEST and renamed into place: a failed build (here: a wheel that
    is not there) neither removes the last bundle nor leaves half of one."""
    dest = tmp_path / "server"
    shutil.copytree(bundle, dest)
    before = sorted(str(p.relative_to(dest)) for p in dest.rglob("*"))
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts/bundle/build.py"), "build", str(dest),
         "--wheel", str(tmp_path / "wavehost-0.1.0-py3-none-any.whl")],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode != 0
    assert sorted(str(p.relative_to(dest)) for p in dest.rglob("*")) == before
    assert [p.name for p in tmp_path.iterdir()] == ["server"]  # nothing left beside it
