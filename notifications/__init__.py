"""Notifications: what a player is told when they are not looking (docs/architecture.md, docs/protocol.md)."""
