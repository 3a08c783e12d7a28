"""The game: the compiled move generator (``_movegen``, the only code that knows how rings
move) and the value types built on it (squares, rules, positions, moves).

Nothing here imports from the other layers of ``solver``.
"""
