from collections.abc import Iterator

import pytest

from tests.workspace import Workspace, make_workspace


@pytest.fixture
def workspace() -> Iterator[Workspace]:
    yield from make_workspace()
