"""Wire models of the page routing: what a shell tells the server about its pages."""

from pydantic import Field

from wavehost.wire import WireModel


class PageClosedParams(WireModel):
    page_id: str = Field(
        min_length=1, description="The id the shell gave the page (as in its requests' pageId)"
    )
