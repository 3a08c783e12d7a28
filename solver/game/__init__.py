"""The game: the compiled move generator (``_movegen``, the only code that knows how rings
move) and the value types built on it (squares, rules, positions, moves, games with their
history). ``moves`` is the core's public face for the layers above.

Nothing here imports from the other layers of ``solver``.
"""
