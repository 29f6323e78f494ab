"""The one base model for everything wavehost writes as JSON for others to read: the protocol's
messages, transcripts, hook outcomes.

One rule for every form: camelCase names, and every field present — an absent value is an
explicit null. The JSON Schema says so too (fields the server writes are required), so generated
types need no guessing. Hook *inputs* are not this: they are Claude Code's snake_case payloads
(`hooks.payloads`).
"""

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class WireModel(BaseModel):
    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        frozen=True,
        json_schema_serialization_defaults_required=True,
    )

    def to_wire(self) -> dict[str, Any]:
        """The JSON form, as a dict."""
        return self.model_dump(mode="json", by_alias=True)

    def to_json(self) -> bytes:
        """The JSON form, as UTF-8 text (what goes into files)."""
        return self.model_dump_json(by_alias=True).encode("utf-8")
