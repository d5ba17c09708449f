"""Building blocks every app layer uses and none owns: the refusal error, instants as text, rate limits.

The lowest layer above the engine: it imports nothing of the apps (and nothing of Django).
"""
