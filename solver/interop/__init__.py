"""Bridges to other game-AI libraries (optional extras)."""
