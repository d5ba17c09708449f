"""Quick pairing: the seek pool shared by every process, the waves, and the pure matching."""
