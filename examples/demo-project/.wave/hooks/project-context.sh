#!/bin/sh
# UserPromptSubmit: exit 0 with plain stdout adds it to the model's context.
echo "Project conventions: Python 3.11, type hints everywhere, tests in tests/."
