"""The hook engine: event catalogue, configuration, matching, running, and interpreting results."""
