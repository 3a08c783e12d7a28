"""The setup search: every setup or pair meeting some constraints, with CP-SAT.

Its modules, by job (the public names are those of :mod:`gyges.setups`):

- ``constraints``: what a search asks for (:class:`Constraints`) and what it found
  (:class:`SearchResult`);
- ``options``: constraints read from option keys, ``KEY=VALUE`` arguments and YAML files;
- ``model``: the CP-SAT model of the placements;
- ``figures``: what the engine says about a start position (landing and replace threats,
  the landing threat hardest to meet), for the search and the analysis of a pair alike;
- ``find``: the search itself, CP-SAT proposing and the engine judging.
"""
