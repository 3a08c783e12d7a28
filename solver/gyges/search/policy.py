"""Which compiled prover answers a question, and how large its table is.

Two independent provers answer the same yes/no question, "can the winner land within d
of its own moves, whatever the other side does?": ``dfpn`` (proof-number search,
``_dfpn.pyx``) and ``alphabeta`` (the depth-first kernel, ``_search.pyx``). Both are
exact; only the time differs. ``auto`` picks by the depth asked (:func:`pick`).

>>> pick("auto", 3), pick("auto", 6), pick("alphabeta", 6)
('alphabeta', 'dfpn', 'alphabeta')
>>> pick("auto", 6) is ProverKind.DFPN
True
"""

from __future__ import annotations

from gyges.game.names import NameEnum

__all__ = ["DFPN_FROM", "PROVERS", "ProverKind", "SolveError", "pick", "table_bits"]


class SolveError(ValueError):
    """A question the solver cannot answer as asked (bad bound, unknown prover,
    inconsistent files)."""


class ProverKind(NameEnum):
    """A prover: its value is the name the command line and JSON use (``"dfpn"``), and it
    compares equal to that name."""

    AUTO = "auto"            #: df-pn from :data:`DFPN_FROM` moves on, the kernel below
    DFPN = "dfpn"            #: proof-number search (``_dfpn.pyx``)
    ALPHABETA = "alphabeta"  #: the depth-first kernel (``_search.pyx``)

    @classmethod
    def parse(cls, name: ProverKind | str) -> ProverKind:
        """The prover called ``name``; SolveError names the choices if there is none."""
        try:
            return cls(name)
        except ValueError:
            raise SolveError(f"unknown prover {name!r}: one of "
                             f"{', '.join(k.value for k in cls)}") from None


#: The provers' names, in the order the command line lists them.
PROVERS: tuple[str, ...] = tuple(k.value for k in ProverKind)

#: ``auto`` asks df-pn from this many moves on. It trades df-pn's speed on deep questions
#: (several times faster where a short proof or refutation exists that the kernel's move
#: ordering misses: ``python -m bench.bench_dfpn a b``) against its overhead on the many
#: small questions of puzzle generation, where the kernel takes less CPU (wins in 3:
#: ``python -m bench.bench_dfpn d``).
DFPN_FROM = 4


def table_bits(max_moves: int) -> int:
    """The size of a transposition table, 2 ** bits entries, by the deepest question it
    will be asked: the small solves of puzzle generation (hundreds a minute) would spend
    more time having the system map a 2 ** 20-entry table's pages than searching; from 4
    moves on, 2 ** 20.

    >>> [table_bits(n) for n in (1, 2, 3, 4, 6)]
    [14, 16, 18, 20, 20]
    """
    return min(20, 12 + 2 * max_moves)


def pick(kind: ProverKind | str, max_moves: int) -> ProverKind:
    """The prover ``kind`` stands for with questions of up to ``max_moves`` moves:
    ``auto`` picks by the depth, the others are themselves."""
    kind = ProverKind.parse(kind)
    if kind is ProverKind.AUTO:
        return ProverKind.DFPN if max_moves >= DFPN_FROM else ProverKind.ALPHABETA
    return kind
