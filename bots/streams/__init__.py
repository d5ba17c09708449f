"""The bot API's NDJSON streams (async views, served by daphne): an account's events and a game's moves."""
