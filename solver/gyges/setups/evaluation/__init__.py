"""The engine's evaluation of every setup pair (``setups evaluate``): each pair's start
position searched at a fixed budget (:mod:`gyges.setups.evaluation.table`: the records,
their file and the run) and the table of them, setup averages and best replies, with its
report (:mod:`gyges.setups.evaluation.summary`), and its map as SVG
(:mod:`gyges.setups.evaluation.heatmap`)."""
