"""Entry point of the ``gyges`` program: the command group and its sub-commands."""

from __future__ import annotations

import click

from gyges_cli.common import GygesGroup


@click.group(
    name="gyges",
    cls=GygesGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
)
@click.version_option(package_name="gyges")
def cli() -> None:
    """Gyges toolkit: rules engine, forced-win solver, puzzles and opening analysis.

    A position is given as a position string (row 6 first, rows joined by '/', then the
    side to move), for example

        gyges show "321123/....../....../....../....../231123 S"

    or as a file: a YAML position file or a seed-000 style text diagram. Every command that
    plays moves takes --rules PRESET (pbmserv, summary, bga, dorbec, dorbec-beginner) and
    --rule key=value overrides; see docs/rules.md.
    """


def _register() -> None:
    """Attach every command module's commands (each module owns its commands)."""
    import importlib

    for module in ("play", "solve", "catalogue", "setups", "generate", "review", "engine", "match"):
        try:
            mod = importlib.import_module(f"gyges_cli.{module}")
        except ModuleNotFoundError as e:
            if e.name == f"gyges_cli.{module}":
                continue
            raise
        for command in getattr(mod, "COMMANDS", ()):
            cli.add_command(command)


_register()
