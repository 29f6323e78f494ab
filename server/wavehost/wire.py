"""Base model for everything that crosses a process boundary as JSON (camelCase on the wire)."""

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class WireModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=True)

    def to_wire(self) -> dict[str, Any]:
        """The JSON form: camelCase, absent values as explicit nulls (the TS types expect them)."""
        return self.model_dump(mode="json", by_alias=True)
