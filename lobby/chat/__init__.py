"""Room chat: saying something, who reads what, and the history."""
