"""Formats: pure parse/format pairs for notation, text diagrams, YAML position files, game
records and SVG diagrams. They use the game layer and nothing above it.
"""
