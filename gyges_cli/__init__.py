"""The ``gyges`` command-line program (click)."""
