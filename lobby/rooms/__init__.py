"""Rooms: rooms, seats, house rules, connections (presence rows), quotas, listings and the REST views."""
