"""The settings service: hooks listed by source, opened and deleted safely, watched for changes."""
