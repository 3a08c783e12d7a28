"""What every command shares: rule options, reading positions, and clean errors.

Bad input never ends in a traceback: commands raise :class:`UserError` (or one of the
library's ValueError subclasses), and :func:`run_cli` turns it into one message on stderr
and exit status 2.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from solver.rules import OPTIONS, PRESETS, RuleError, RuleSet, rules_from

F = TypeVar("F", bound=Callable[..., Any])

EXIT_BAD_INPUT = 2


class UserError(click.ClickException):
    """Bad input: printed as ``gyges: <where>: <what is wrong>``, exit status 2."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(f"{where}: {message}" if where else message)

    def show(self, file: Any = None) -> None:
        click.echo(f"gyges: {self.format_message()}", err=True)


def rule_options(func: F) -> F:
    """``--rules PRESET`` and repeatable ``--rule key=value``; passes ``rules: RuleSet``."""

    @click.option(
        "--rules",
        "preset_name",
        default=None,
        metavar="PRESET",
        help=f"Rule preset: {', '.join(PRESETS)} (default: the file's preset, else pbmserv).",
    )
    @click.option(
        "--rule",
        "overrides",
        multiple=True,
        metavar="KEY=VALUE",
        help="Override one rule option; repeatable. Keys: "
        + "; ".join(f"{k} ({'/'.join(v)})" for k, v in OPTIONS.items())
        + ".",
    )
    @functools.wraps(func)
    def wrapper(*args: Any, preset_name: str | None, overrides: tuple[str, ...], **kwargs: Any):
        try:
            rules = rules_from(preset_name or "pbmserv", overrides)
        except RuleError as e:
            raise UserError(str(e), "--rules/--rule") from None
        kwargs["rules"] = rules
        kwargs["rules_given"] = preset_name is not None or bool(overrides)
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def combine_rules(file_rules: RuleSet | None, cli_rules: RuleSet, cli_given: bool) -> RuleSet:
    """Rules from the command line win over a file's; a file's win over the default."""
    if cli_given or file_rules is None:
        return cli_rules
    return file_rules
