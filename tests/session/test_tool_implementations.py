"""Every tool the catalogue says wavehost offers has an implementation of that name, and every
implementation is in the catalogue; each reads its catalogue sample as a valid input."""

import importlib
import pkgutil
from typing import Any

from wavehost.hooks.dialects.wave.model_hooks import STRUCTURED_OUTPUT
from wavehost.hooks.tools import BY_NAME, TOOLS
from wavehost.session import tools as session_tools
from wavehost.session.tools.base import Tool


def _implementations() -> dict[str, type[Tool[Any]]]:
    for info in pkgutil.iter_modules(session_tools.__path__):
        importlib.import_module(f"{session_tools.__name__}.{info.name}")
    found: dict[str, type[Tool[Any]]] = {}
    pending: list[type[Tool[Any]]] = list(Tool.__subclasses__())
    while pending:
        cls = pending.pop()
        pending += cls.__subclasses__()
        name = vars(cls).get("name")
        if isinstance(name, str):
            found[name] = cls
    return found


def test_each_offered_tool_has_its_implementation_and_no_other_is_implemented() -> None:
    implemented = _implementations()
    # StructuredOutput is made per agent hook (its schema is the hook's), under the catalogue name
    offered = {t.name for t in TOOLS if t.offered} - {STRUCTURED_OUTPUT}
    assert set(implemented) == offered
    assert STRUCTURED_OUTPUT in BY_NAME


def test_each_sample_is_an_input_its_tool_accepts() -> None:
    for name, cls in _implementations().items():
        sample = BY_NAME[name].sample
        cls.input_model.model_validate(sample)  # raises for a sample the tool would refuse
