# Types of the engine's compiled search (solver/gyges/engine/_engine.pyx), for mypy.
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

_Triple = tuple[int, int, int | None]

MATE: int
MATE_BOUND: int
EVAL_CAP: int
MAX_CORES: int
FEATURES: tuple[str, ...]
F_TEMPO: int
F_THREAT: int
F_REACH_X: int
F_REACH_Y: int
F_MOBILITY_X: int
F_MOBILITY_Y: int
F_ADVANCE_X: int
F_ADVANCE_Y: int
F_SHORE_1_X: int
F_SHORE_2_X: int
F_SHORE_3_X: int
F_SHORE_1_Y: int
F_SHORE_2_Y: int
F_SHORE_3_Y: int
F_SAME_ROW: int
F_BETWEEN: int
F_AREA_X: int
F_AREA_Y: int
F_GOAL_ROW_X: int
F_GOAL_ROW_Y: int
F_SURELY_X: int
F_SURELY_Y: int
F_LONE_X: int
F_LONE_Y: int
F_MOVES_X: int
F_MOVES_Y: int
F_RINGS_X: int
F_RINGS_Y: int
F_ENDS_X: int
F_ENDS_Y: int

def monotonic() -> float: ...

@dataclass(frozen=True)
class SearchResult:
    score: int | None
    pv: tuple[_Triple, ...]
    depth: int
    nodes: int
    seldepth: int = ...
    lower_bound: bool = ...

class Search:
    def __init__(self, rules: int, weights: Iterable[float], tt_bits: int = ...,
                 cores: int = ...,
                 network: tuple[Sequence[Sequence[int]], Sequence[int], Sequence[int], int,
                                Sequence[float]] | None = ...) -> None: ...
    def close(self) -> None: ...
    def stop(self) -> None: ...
    def resume(self) -> None: ...
    def clear(self) -> None: ...
    def go(self, board: bytes, side: int, history: Iterable[bytes] = ..., depth: int = ...,
           nodes: int = ..., seconds: float = ..., excluded: Iterable[_Triple] = ...,
           info: Callable[[int, int, list[_Triple], int, int], None] | None = ...,
           ) -> SearchResult: ...
    @property
    def last(self) -> SearchResult | None: ...
    def evaluate(self, board: bytes, side: int, history: Iterable[bytes] = ...
                 ) -> tuple[int, tuple[float, ...] | None]: ...
    def attack_maps(self, board: bytes, side: int, history: Iterable[bytes] = ...
                    ) -> tuple[int, int, int, int]: ...
    @property
    def nodes(self) -> int: ...
