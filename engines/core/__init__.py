"""The game-independent core: log envelope, errors, replay, simulation."""
