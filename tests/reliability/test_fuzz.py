"""Hypothesis against the real server: every custom method's params, and config file contents.

The methods come from the protocol table, their params' shape from its models' JSON Schema: each
example mixes what the schema asks for (its property names, enum values, real hook ids and
config paths) with what it does not (junk values, extra keys, not an object). The server must
answer each request with a result or a typed error (-32602 invalid params, -32803 with a
`data.reason`) and stay alive; an internal error (-32603) or silence is a crash.
"""

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.hooks_doc import hook
from tests.reliability.figures import record
from tests.reliability.raw_lsp import RawServer
from tests.workspace import Workspace, make_workspace
from wavehost.hooks.catalogue import EVENT_NAMES
from wavehost.hooks.safe_read import read_json
from wavehost.hooks.sources import load_hook_config
from wavehost.protocol import table
from wavehost.protocol.schema import model
from wavehost.protocol.settings import HooksListResult
from wavehost.settings.edit import delete_handler
from wavehost.settings.listing import listing_of

TYPED_ERRORS = {-32602, -32803}
METHODS = table.client_requests()
EXAMPLES_PER_METHOD = 40

JSON: st.SearchStrategy[Any] = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=10), children, max_size=4)
    ),
    max_leaves=12,
)


Known = dict[str, list[str]]  # real values by property name: hook ids, config paths, sources
Fuzzed = tuple[RawServer, Known]


class Counts:
    cases = 0
    crashes = 0
    seconds = 0.0


def _value(schema: dict[str, Any], known: Known, name: str) -> st.SearchStrategy[Any]:
    """A value for one property: what its schema describes, a known real value, or junk."""
    options: list[st.SearchStrategy[Any]] = [JSON]
    for branch in [schema, *schema.get("anyOf", [])]:
        if "enum" in branch:
            options.append(st.sampled_from(branch["enum"]))
        if "const" in branch:
            options.append(st.just(branch["const"]))
        kind = branch.get("type")
        if kind == "string":
            options.append(st.text(max_size=200))
            if "pattern" in branch:
                options.append(st.from_regex(branch["pattern"], fullmatch=True))
        elif kind == "boolean":
            options.append(st.booleans())
        elif kind in ("integer", "number"):
            options.append(st.integers(-(2**40), 2**40))
    if known.get(name):
        options.append(st.sampled_from(known[name]))
    return st.one_of(options)


def params_for(method: table.Method, known: Known) -> st.SearchStrategy[Any]:
    schema = model(method.params).model_json_schema(by_alias=True, mode="validation")
    properties: dict[str, Any] = schema.get("properties", {})
    shaped = st.fixed_dictionaries(
        {},
        optional={name: _value(prop, known, name) for name, prop in properties.items()},
    )
    with_extras = st.tuples(shaped, st.dictionaries(st.text(max_size=8), JSON, max_size=2)).map(
        lambda both: {**both[1], **both[0]}
    )
    return st.one_of(shaped, with_extras, JSON)


def fuzz_workspace(workspace: Workspace) -> None:
    script = workspace.write(
        workspace.root / "turns.json", {"turns": [{"text": f"turn {i}"} for i in range(500)]}
    )
    hooks = {
        name: [{"hooks": [hook(f"true {name} {i}") for i in range(3)]}] for name in EVENT_NAMES
    }
    workspace.write(
        workspace.user_settings, {"provider": "scripted", "script": str(script), "hooks": hooks}
    )


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[Fuzzed]:
    for workspace in make_workspace():
        fuzz_workspace(workspace)
        server = RawServer(workspace)
        server.initialize()
        msg_id = server.request(table.HOOKS_LIST.name, {})
        listed = server.response(msg_id)["result"]
        known = {
            "id": [h["id"] for h in listed["hooks"]],
            "path": [f["path"] for f in listed["configFiles"]],
            "source": ["user", "project", "plugin"],
        }
        yield server, known
        server.close()
        if Counts.cases:
            record(
                "fuzz (custom methods)",
                cases=Counts.cases,
                cases_per_s=round(Counts.cases / Counts.seconds, 1),
                crashes=Counts.crashes,
            )


def check_answer(server: RawServer, method: str, params: Any) -> None:
    started = time.perf_counter()
    msg_id = server.request(method, params)
    answer = server.response(msg_id)
    Counts.seconds += time.perf_counter() - started
    Counts.cases += 1
    if "error" in answer:
        error = answer["error"]
        if error["code"] not in TYPED_ERRORS:
            Counts.crashes += 1
        assert error["code"] in TYPED_ERRORS, (method, params, error)
        if error["code"] == -32803:
            assert isinstance(error.get("data", {}).get("reason"), str), error
    else:
        assert "result" in answer
    assert server.alive()


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name)
def test_every_custom_method_answers_any_params_with_a_result_or_a_typed_error(
    fuzzed: Fuzzed, method: table.Method
) -> None:
    server, known = fuzzed

    @settings(
        max_examples=EXAMPLES_PER_METHOD,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )
    @given(params=params_for(method, known))
    def answers(params: Any) -> None:
        check_answer(server, method.name, params)

    answers()


# -- config file contents --------------------------------------------------------------------

HANDLER = st.fixed_dictionaries(
    {},
    optional={
        "type": st.sampled_from(["command", "http", "prompt"]) | JSON,
        "command": st.text(max_size=20) | JSON,
        "timeout": st.floats(-5, 700, allow_nan=False) | JSON,
        "async": st.booleans() | JSON,
        "asyncRewake": st.booleans() | JSON,
        "statusMessage": st.text(max_size=10) | JSON,
    },
)
GROUP = st.fixed_dictionaries(
    {},
    optional={
        "matcher": st.sampled_from(["Bash", "Write|Edit", "mcp__.*", "(", "*", ""]) | JSON,
        "hooks": st.lists(HANDLER | JSON, max_size=4) | JSON,
    },
)
SETTINGS = st.fixed_dictionaries(
    {},
    optional={
        "hooks": st.dictionaries(
            st.sampled_from(EVENT_NAMES) | st.text(max_size=12),
            st.lists(GROUP | JSON, max_size=3) | JSON,
            max_size=4,
        )
        | JSON,
        "disableAllHooks": st.booleans() | JSON,
        "enabledPlugins": st.dictionaries(st.text(max_size=6), st.booleans() | JSON) | JSON,
        "provider": JSON,
    },
)


@st.composite
def settings_text(draw: st.DrawFn) -> bytes:
    """A settings document, serialised, then sometimes damaged the way files get damaged."""
    text = json.dumps(draw(SETTINGS), indent=draw(st.sampled_from([None, 2, 4])))
    damage = draw(st.sampled_from(["none", "none", "truncate", "bom", "duplicate", "bytes"]))
    if damage == "truncate":
        text = text[: draw(st.integers(0, len(text)))]
    elif damage == "duplicate" and text.startswith("{") and len(text) > 2:
        text = '{"hooks": {}, ' + text[1:]
    data = text.encode()
    if damage == "bom":
        data = b"\xef\xbb\xbf" + data
    elif damage == "bytes":
        data = data + draw(st.binary(max_size=8))
    return data


@settings(max_examples=150, database=None)
@given(data=settings_text())
def test_any_settings_file_loads_lists_and_deletes_without_raising(data: bytes) -> None:
    for workspace in make_workspace():
        workspace.user_settings.parent.mkdir(parents=True)
        workspace.user_settings.write_bytes(data)
        config = load_hook_config(workspace.project, home=workspace.home)
        HooksListResult.of(listing_of(config, workspace.project)).to_wire()
        listed = [h for h in config.handlers if h.path is not None]
        if listed:  # deleting one leaves valid JSON, with exactly one hook less
            delete_handler(listed[0])
            assert read_json(workspace.user_settings).problem is None
            after = load_hook_config(workspace.project, home=workspace.home)
            assert len([h for h in after.handlers if h.path]) == len(listed) - 1


def test_the_server_lists_any_fuzzed_settings_file(
    fuzzed: tuple[RawServer, Known],
) -> None:
    server, _ = fuzzed
    settings_file = server.project / ".wave" / "settings.local.json"
    settings_file.parent.mkdir(parents=True, exist_ok=True)

    @settings(
        max_examples=40,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )
    @given(data=settings_text())
    def lists(data: bytes) -> None:
        settings_file.write_bytes(data)
        check_answer(server, table.HOOKS_LIST.name, {})

    lists()
