"""Puzzles: the catalogue schema and its checking, export (text, SVG, HTML book), and the
puzzle generator with its CP-SAT composition. Uses search, formats and game.

The catalogue's data lives in the top-level ``puzzles/`` folder, not here.
"""
