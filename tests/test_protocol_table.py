"""The method table is the one place method names and shell commands are spelled; everything
else derives from it."""

import importlib.util
import re
from pathlib import Path

import pytest
from pygls.lsp.server import LanguageServer

from wavehost.language import default_locale, environment_locale, language_of
from wavehost.lsp.workspace import WorkspaceOptions
from wavehost.protocol import launch, table
from wavehost.protocol.schema import model, protocol_schema
from wavehost.settings.trust import Trust

REPO = Path(__file__).resolve().parents[1]
# Where code that speaks the protocol lives; generated files (a GENERATED banner) are the table's.
SOURCES = {
    "server/wavehost": ("*.py",),
    "webview/src": ("*.ts",),
    "extension-vscode/src": ("*.ts",),
    "extension-jetbrains": ("*.kt", "*.java", "*.ts", "*.js"),
}
SKIPPED_DIRS = {"node_modules", "build", "target", "out", "dist", ".gradle"}
METHOD_LITERAL = re.compile(r"""["'](wave/[A-Za-z/]+)["']""")
COMMAND_NAMES = "|".join(re.escape(c.name) for c in table.SHELL_COMMANDS)
COMMAND_LITERAL = re.compile(
    rf"""(?:\b(?:shell|onShell)\(\s*|\bcommand\s*(?:===?|!==?|:)\s*|["']command["']\s*:\s*)"""
    rf"""["']({COMMAND_NAMES})["']"""
)


def _protocol_sources() -> list[Path]:
    files = []
    for folder, patterns in SOURCES.items():
        root = REPO / folder
        for pattern in patterns:
            for path in root.rglob(pattern):
                if SKIPPED_DIRS.isdisjoint(path.relative_to(root).parts):
                    files.append(path)
    return sorted(files)


def _generated(text: str) -> bool:
    return "GENERATED" in "\n".join(text.splitlines()[:3])


def test_method_names_and_shell_commands_are_spelled_only_in_the_table() -> None:
    stray = []
    scanned = 0
    for path in _protocol_sources():
        if path == REPO / "server/wavehost/protocol/table.py":
            continue
        text = path.read_text(encoding="utf-8")
        if _generated(text):
            continue
        scanned += 1
        for number, line in enumerate(text.splitlines(), 1):
            for literal in (*METHOD_LITERAL.findall(line), *COMMAND_LITERAL.findall(line)):
                stray.append(f"{path.relative_to(REPO)}:{number}: {literal}")
    assert scanned > 20  # the scan found the code it is meant to look at
    assert stray == [], (
        "use the table's constants (protocol/table.py, generated.ts):\n" + "\n".join(stray)
    )


def test_the_scan_would_see_a_stray_name() -> None:
    assert METHOD_LITERAL.findall('self.call("wave/hooks/list", {})') == ["wave/hooks/list"]
    assert COMMAND_LITERAL.findall('rpc.shell("closeSettings", {})') == ["closeSettings"]
    assert COMMAND_LITERAL.findall("if command == 'openChat':") == ["openChat"]
    assert COMMAND_LITERAL.findall('{"kind": "shell", "command": "showView"}') == ["showView"]
    assert COMMAND_LITERAL.findall('args.get("prefill")') == []  # an argument, not a command


def test_every_row_names_models_that_exist_and_is_unique() -> None:
    names = [m.name for m in table.METHODS]
    assert len(set(names)) == len(names)
    assert len({m.constant for m in table.METHODS}) == len(names)
    assert len({c.name for c in table.SHELL_COMMANDS}) == len(table.SHELL_COMMANDS)
    for method in table.METHODS:
        model(method.params)
        if method.result is not None:
            model(method.result)
        assert method.name.startswith("wave/")
        assert not method.standard
    for method in table.STANDARD:
        assert method.name.startswith("$/")
        assert method.standard
    for command in table.SHELL_COMMANDS:
        model(command.args)


@pytest.mark.parametrize("feature_name", ["settings", "chat"])
def test_each_feature_handles_exactly_its_methods_of_the_table(
    feature_name: str, tmp_path: Path
) -> None:
    from wavehost.lsp.chat import ChatFeature
    from wavehost.lsp.settings import SettingsFeature

    options = WorkspaceOptions(tmp_path, None, Trust(True), None)
    cls = {"settings": SettingsFeature, "chat": ChatFeature}[feature_name]
    feature = cls(LanguageServer("test", "0"), options)
    owned = {m.name for m in table.METHODS if m.feature == feature_name}
    assert set(feature.handlers) == owned & {m.name for m in table.client_requests()}


def test_a_feature_that_misses_a_method_of_the_table_does_not_start() -> None:
    from wavehost.lsp.edge import handlers_for

    async def handler(params: object) -> dict[str, object]:
        return {}

    with pytest.raises(RuntimeError, match=r"missing=\['wave/hooks/delete'"):
        handlers_for(
            "settings",
            {
                table.HOOKS_LIST: handler,
                table.HOOKS_PREFILL: handler,
                table.OPEN_CONFIG_FILE: handler,
                table.WORKSPACE_SET_TRUSTED: handler,
            },
        )


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("zh-CN", "zh"),
        ("zh_TW", "zh"),
        ("ZH", "zh"),
        ("en-GB", "en"),
        ("fr", "en"),  # the review's case: fr/de/no gave an English page but Chinese prompts
        ("de-DE", "en"),
        ("no", "en"),
        ("C", "en"),  # the C / POSIX locale chooses no language: as none at all
        (None, "en"),
        ("", "en"),
    ],
)
def test_one_rule_picks_the_language(locale: str | None, language: str) -> None:
    assert language_of(locale) == language


@pytest.mark.parametrize(
    ("env", "locale"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh-CN"),
        ({"LANG": "C.UTF-8"}, None),  # the lead's case: English in every shell, not Chinese in one
        ({"LANG": "POSIX"}, None),
        ({"LC_ALL": "zh_TW.UTF-8", "LC_MESSAGES": "fr_FR", "LANG": "en_US.UTF-8"}, "zh-TW"),
        ({"LC_ALL": "", "LC_MESSAGES": "fr_FR.UTF-8@euro", "LANG": "zh_CN"}, "fr-FR"),
        ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, None),  # LC_ALL wins, and chooses no language
        ({}, None),
    ],
)
def test_the_environment_chooses_a_locale_as_posix_programs_read_it(
    env: dict[str, str], locale: str | None
) -> None:
    assert environment_locale(env) == locale
    assert default_locale(env) == (locale or "en")


def test_the_launch_policy_is_the_launchers_own() -> None:
    """The shells' policy names the bundle's launcher and its exit status as launch.py has them."""
    launcher = REPO / "scripts" / "bundle" / launch.LAUNCHER
    spec = importlib.util.spec_from_file_location("launcher", launcher)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.UNUSABLE == launch.UNUSABLE_EXIT
    delays = launch.RESTART_DELAYS_MS
    assert list(delays) == sorted(delays)
    assert all(d > 0 for d in delays)
    assert protocol_schema()["launch"]["restartDelaysMs"] == list(delays)


def test_the_shells_texts_exist_in_every_language_with_the_same_blanks() -> None:
    """Each shell text is in every UI language the rule can pick, with the same `{name}`s to fill
    in, and `wavehost protocol-schema` exports exactly that table (the shells' is generated)."""
    from wavehost.language import LANGUAGES
    from wavehost.protocol.shell_texts import SHELL_TEXTS

    assert set(SHELL_TEXTS) == set(LANGUAGES)
    english = SHELL_TEXTS["en"]
    for language, texts in SHELL_TEXTS.items():
        assert texts.keys() == english.keys(), language
        for key, text in texts.items():
            blanks = set(re.findall(r"\{(\w+)\}", text))
            assert blanks == set(re.findall(r"\{(\w+)\}", english[key])), (language, key)
            assert text.strip(), (language, key)
    assert protocol_schema()["shellTexts"] == SHELL_TEXTS
