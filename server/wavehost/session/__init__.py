"""Chat sessions: the message model, the agent loop, tools, providers, transcripts."""
