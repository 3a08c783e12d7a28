"""What every command shares: rule options, reading positions, and clean errors.

Bad input never ends in a traceback: commands raise :class:`UserError` (or one of the
library's ValueError subclasses), and :func:`run_cli` turns it into one message on stderr
and exit status 2.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from solver.game.rules import OPTIONS, PRESETS, RuleError, RuleSet, parse_override, rules_from

F = TypeVar("F", bound=Callable[..., Any])

EXIT_BAD_INPUT = 2


class UserError(click.ClickException):
    """Bad input: printed as ``gyges: <where>: <what is wrong>``, exit status 2."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(f"{where}: {message}" if where else message)

    def show(self, file: Any = None) -> None:
        click.echo(f"gyges: {self.format_message()}", err=True)


@dataclasses.dataclass(frozen=True)
class RuleRequest:
    """What the command line asked for: a preset and/or ``key=value`` overrides.

    True when anything was asked; :func:`combine_rules` applies it over a file's rules.
    """

    preset: str | None = None
    overrides: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return self.preset is not None or bool(self.overrides)


class GygesGroup(click.Group):
    """The ``gyges`` command group: a usage error anywhere below it (a missing argument,
    a bad option value, an unknown command) is one line ``gyges: ...; see '<command>
    --help'`` with exit status 2, like every other bad input."""

    @staticmethod
    def _one_line(e: click.UsageError) -> UserError:
        path = e.ctx.command_path if e.ctx is not None else "gyges"
        return UserError(f"{e.format_message().rstrip('.')}; see '{path} --help'")

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as e:
            raise self._one_line(e) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.NoArgsIsHelpError:
            raise
        except click.UsageError as e:
            raise self._one_line(e) from None


def rule_options(func: F) -> F:
    """``--rules PRESET`` and repeatable ``--rule key=value``.

    Passes ``rules`` (the RuleSet they give on their own, pbmserv by default) and
    ``rules_given`` (a :class:`RuleRequest`, for :func:`combine_rules`).
    """

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
            pairs = tuple(parse_override(o) for o in overrides)
        except RuleError as e:
            raise UserError(str(e), "--rules/--rule") from None
        kwargs["rules"] = rules
        kwargs["rules_given"] = RuleRequest(preset_name, pairs)
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def combine_rules(
    file_rules: RuleSet | None, cli_rules: RuleSet, cli_given: RuleRequest | bool
) -> RuleSet:
    """The rules in force: ``--rules`` replaces a file's rules, ``--rule`` amends them.

    >>> from solver.game.rules import PRESETS
    >>> dorbec = PRESETS["dorbec"]
    >>> combine_rules(dorbec, PRESETS["pbmserv"], RuleRequest()) == dorbec
    True
    >>> combine_rules(dorbec, PRESETS["pbmserv"], RuleRequest(None, (("replace", "off"),))).name
    'dorbec-beginner'
    >>> combine_rules(dorbec, PRESETS["bga"], RuleRequest("bga")).name
    'bga'
    """
    if file_rules is None:
        return cli_rules
    if not cli_given:
        return file_rules
    if isinstance(cli_given, RuleRequest) and cli_given.preset is None:
        return file_rules.with_options(dict(cli_given.overrides))
    return cli_rules
