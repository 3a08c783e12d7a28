"""The proven analysis of setup pairs: the solver's verdict and the figures of each pair,
in batch, and its report.

Its modules, by job (the public names are those of :mod:`gyges.setups`):

- ``analysis``: the analysis of one pair, as a record;
- ``records``: the records (:class:`PairRecord`, with the parameters of their analysis,
  :class:`AnalysisParams`) and the results file holding them;
- ``batch``: the run over many pairs (one resumable run of :mod:`gyges.parallel`), whole
  or split per first move;
- ``report``: the summary as text;
- ``heatmap``: the heat map as SVG.
"""
