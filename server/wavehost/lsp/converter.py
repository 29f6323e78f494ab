"""The converter that hands custom payloads over as they came: plain JSON dicts.

pygls' default turns the params (and results) of methods it does not know into namedtuples with
renamed keys (`class` → `_2`), which would then have to be turned back. Standard LSP messages are
still structured into lsprotocol types; only the generic fallback messages are left raw, to be
validated by the protocol models.

`window/showDocument` is sent with plain-dict params: they name the page that asked to see the
file (`pageIds`, see `wavehost.lsp.pages`), which lsprotocol's type has no field for.
"""

from typing import Any

from cattrs import Converter
from lsprotocol import converters, types
from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage


def _as_is(obj: dict[str, Any], cls: type[Any]) -> Any:
    return cls(**obj)


def raw_converter() -> Converter:
    converter = converters.get_converter()
    for message in (JsonRPCRequestMessage, JsonRPCNotification, JsonRPCResponseMessage):
        converter.register_structure_hook(message, _as_is)
    typed = converters.get_converter()

    def show_document(params: Any) -> Any:
        return params if isinstance(params, dict) else typed.unstructure(params)

    converter.register_unstructure_hook(types.ShowDocumentParams, show_document)
    return converter
