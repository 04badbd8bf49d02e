"""Agent keys, the high-availability status and the agent install key."""
