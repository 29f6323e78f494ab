"""The protocol contract: the method table (`table`), the wire models, the schema export.

`table` is plain data and imports nothing heavy (`wavehost serve` registers its handlers from it
at start-up); the pydantic models are imported only where params are read or results written.
"""
