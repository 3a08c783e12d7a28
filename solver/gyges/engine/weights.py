"""The evaluation's weights: one number per feature of the compiled search
(:data:`FEATURES`), read from a small JSON file. The shipped file, ``weights.json`` beside
this module, is made by :mod:`gyges.engine.training` (``make weights``): a logistic regression
of self-play results on the features, so that the evaluation is the logit of the side
to move's chance to win (in hundredths: see :mod:`gyges.engine.score`).

>>> w = Weights.load()
>>> len(w.values) == len(FEATURES), w.names == FEATURES
(True, True)
>>> Weights.from_json(w.to_json(), "<copy>") == w
True
"""

from __future__ import annotations

import dataclasses
import json
import math
from importlib import resources
from pathlib import Path
from typing import Any

from gyges.engine._engine import FEATURES

__all__ = ["FEATURES", "Weights", "WeightsError", "SHIPPED"]

#: The shipped weights file's name, beside this module.
SHIPPED = "weights.json"


class WeightsError(ValueError):
    """A weights file that cannot be read; the message names the file (and line)."""


@dataclasses.dataclass(frozen=True)
class Weights:
    """One weight per feature (in :data:`FEATURES` order), with where they come from
    (``fit``: how they were fitted, as the fitting script wrote it)."""

    values: tuple[float, ...]
    fit: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    source: str = dataclasses.field(default="<weights>", compare=False)

    @property
    def names(self) -> tuple[str, ...]:
        return FEATURES

    def __getitem__(self, name: str) -> float:
        return self.values[FEATURES.index(name)]

    def to_json(self) -> dict[str, Any]:
        return {"features": dict(zip(FEATURES, self.values, strict=True)), "fit": self.fit}

    @classmethod
    def from_json(cls, data: Any, source: str) -> Weights:
        if not isinstance(data, dict) or not isinstance(data.get("features"), dict):
            raise WeightsError(f"{source}: a weights file is a JSON object with "
                               "\"features\": {name: weight, ...}")
        given = data["features"]
        missing = [n for n in FEATURES if n not in given]
        unknown = [n for n in given if n not in FEATURES]
        if missing or unknown:
            what = (f"missing {', '.join(missing)}" if missing else "") + (
                "; " if missing and unknown else "") + (
                f"unknown {', '.join(unknown)}" if unknown else "")
            raise WeightsError(f"{source}: features {what}: the evaluation reads "
                               f"{', '.join(FEATURES)}")
        values = []
        for name in FEATURES:
            v = given[name]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise WeightsError(f"{source}: feature {name}: {v!r} is not a number")
            values.append(float(v))
        fit = data.get("fit", {})
        return cls(tuple(values), fit if isinstance(fit, dict) else {}, source)

    @classmethod
    def load(cls, path: str | Path | None = None) -> Weights:
        """The weights in ``path``, or the shipped ones."""
        if path is None:
            text = resources.files("gyges.engine").joinpath(SHIPPED).read_text("utf-8")
            source = SHIPPED
        else:
            source = str(path)
            try:
                text = Path(path).read_text("utf-8")
            except UnicodeDecodeError:
                raise WeightsError(f"{source}: not a weights file: it is not text (a weights "
                                   "file is JSON, as `gyges engine-weights` writes)") from None
            except OSError as e:
                raise WeightsError(f"{source}: cannot read the weights: "
                                   f"{e.strerror or e}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as e:
            raise WeightsError(f"{source}:{e.lineno}: not JSON: {e.msg}") from None
        return cls.from_json(data, source)

    def dumps(self) -> str:
        """The file's text: one feature a line, weights rounded to 6 decimals (what
        ``make weights`` writes, byte for byte)."""
        lines = ",\n".join(f'    "{n}": {round(v, 6)!r}' for n, v in
                           zip(FEATURES, self.values, strict=True))
        fit = json.dumps(self.fit, indent=2, sort_keys=True).replace("\n", "\n  ")
        return "{\n  \"features\": {\n" + lines + "\n  },\n  \"fit\": " + fit + "\n}\n"
