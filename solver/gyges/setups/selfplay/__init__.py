"""The self-play room: games of the builtin engine against itself from setup pairs
(``setups rank``), and what they say about the setups.

The modules, by job:

- ``games``: the run (one resumable run of :mod:`gyges.parallel`, one game a task) and
  its games file, each line a :class:`gyges.engine.refereed.PlayedGame`;
- ``table``: the games as a table (the mirror folded in, proven verdicts first);
- ``strengths``: the Bradley-Terry fit of one strength per setup and side, with intervals;
- ``reliability``: how sure a ranking is (the true spread of the strengths, shrunken
  strengths, split-half reliability, counts set against a simulated null);
- ``report`` and ``scoremap``: the report of a games file as text, its pair map (by
  setup groups) as SVG; ``forest``: the forest plot of the strengths as SVG;
- ``ladder``: the strength ladder (``setups ladder``), one set of pairs played at
  several strengths.
"""
