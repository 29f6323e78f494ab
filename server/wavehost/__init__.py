"""wavehost: the hooks host for AI coding agents in IDEs."""

__version__ = "0.1.0"
