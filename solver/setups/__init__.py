"""Opening setups: the setup space and its constraints searched with CP-SAT
(``constraints``), and the batch analysis of setup pairs with its report (``batch``).
Uses search, formats and game.
"""
