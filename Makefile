PYTHON ?= python3

.PHONY: install test test-all bench lint weights data data-tables evaluations data-report data-publish validation ladder data-pictures calibration network network-calibration labels labels-3 labels-4 network-final network-final-calibration against-linear helios-matches

install:
	$(PYTHON) -m pip install -e '.[test]'

# The default test run (CI runs exactly this): under 10 minutes on 2 cores.
test:
	$(PYTHON) -m pytest -q -m "not slow"

# Everything, including the long cross-checks.
test-all:
	$(PYTHON) -m pytest -q

bench:
	$(PYTHON) -m bench

# Style (ruff), the layers (import-linter: pyproject.toml [tool.importlinter]) and types (mypy).
lint:
	$(PYTHON) -m ruff check solver gyges_cli tests bench
	$(PYTHON) -c "from importlinter.cli import lint_imports_command; lint_imports_command()"
	$(PYTHON) -m mypy

# The engine's evaluation weights, trained by seeded self-play (solver/gyges/engine/training.py):
# rewrites solver/gyges/engine/weights.json, the same bytes on the same kind of machine.
weights:
	gyges engine-weights --jobs 2 --out solver/gyges/engine/weights.json

# Every published file the engine makes, made again by the engine of this checkout: run it
# after any change to the engine's moves (its weights, or code that plays a move
# differently), in the same change; tests/test_published_games.py and
# tests/test_published_tables.py fail until then (they play a sample again). First
# the depth-3 table (data-tables), then the self-play games (data/setups/pbmserv-selfplay.*:
# 16,000 games at 10,000 nodes a move), the evaluations of every pair (evaluations), the
# validation block (validation: 4,000 more games at 10,000 nodes), the strength ladder
# (ladder), and last the study's report, pair map, forest plot, PNGs and answer
# (data-report). About 16 CPU hours (2 workers: about 8 hours): 6.5 of them the self-play
# games, 3 the evaluations, 1.6 the validation block, 4 the ladder. An interrupted run
# resumes from $(SELFPLAY).part or from the file it was writing, and a file this
# checkout's engine completed is kept: a run longer than a sitting is committed as it
# grows and resumed later by `make data` again. A file of another engine is first moved
# to FILE.stale.
#
# `make data` writes into data/setups/ with the default evaluation. `make data SETUPS=DIR`
# writes the same files into DIR (with `NETWORK=FILE`: played and searched with the network
# FILE): a new engine's files are made so, beside the published ones, then moved into
# data/setups/ once complete (the tests replay every games file under data/, and read the
# reports of data/setups/ only).
SETUPS ?= data/setups
NETWORK ?=
WITH_NETWORK = $(if $(NETWORK),--network $(NETWORK))
SELFPLAY = $(SETUPS)/pbmserv-selfplay.jsonl
data: data-tables
	$(call retire,$(SELFPLAY) $(SELFPLAY).part)
	if [ ! -f $(SELFPLAY) ]; then \
	    gyges setups rank --canonical --games 16000 --nodes 10000 --prove 2 --jobs 2 \
	        $(WITH_NETWORK) --out $(SELFPLAY).part && \
	    $(PYTHON) -c "import json, sys; rows = open(sys.argv[1]).read().splitlines(); \
	        rows.sort(key=lambda r: json.loads(r)['game']); \
	        open(sys.argv[2], 'w').write(''.join(r + '\\n' for r in rows))" \
	        $(SELFPLAY).part $(SELFPLAY) && \
	    rm $(SELFPLAY).part; \
	fi
	$(MAKE) evaluations
	$(call retire,$(VALIDATION).jsonl $(foreach n,$(LADDER_NODES),$(LADDER)-$(n).jsonl))
	$(MAKE) validation
	$(MAKE) ladder
	$(MAKE) data-report

# Move each games, evaluation or proven-table file of $(1) made by another engine (or
# evaluation: the default one, or $(NETWORK): a network's file or `linear`) to FILE.stale (a run refuses to extend another
# engine's file), so that the target after it makes it afresh.
define retire
	$(PYTHON) -c "import os, sys; from gyges.engine.identity import engine_identity; \
	    from gyges.engine.network import Network; from gyges.setups import read_results; \
	    from gyges.setups.evaluation.table import is_evaluation_file, read_evaluations; \
	    from gyges.setups.selfplay.games import is_games_file, read_selfplay_games; \
	    net = sys.argv[1]; here = engine_identity(**({} if not net else {'network': None \
	        if net == 'linear' else Network.load(net)})); \
	    made_by = lambda p: ((read_evaluations(p)[0] or {}).get('engine') \
	        if is_evaluation_file(p) else (read_selfplay_games(p)[0] or {}).get('engine') \
	        if is_games_file(p) else getattr(read_results(p)[0], 'engine', None)); \
	    [os.replace(p, p + '.stale') for p in sys.argv[2:] if os.path.exists(p) and \
	     made_by(p) not in (None, here)]" "$(NETWORK)" $(1)
endef

# The self-play study's report, pair map and forest plot (with the evaluations' column), the
# answer that opens docs/setups.md, and the PNGs: a few minutes, from the published files.
data-report:
	gyges setups report $(SELFPLAY) --proven $(DEPTH3) --evaluations $(EVALUATIONS) \
	    $(foreach f,$(LADDER_FILES),--ladder $(f)) \
	    --svg $(SETUPS)/pbmserv-selfplay.svg --forest $(SETUPS)/pbmserv-selfplay-forest.svg \
	    > $(SETUPS)/pbmserv-selfplay-report.txt
	gyges setups answer $(SELFPLAY) --evaluations $(EVALUATIONS) \
	    $(foreach f,$(LADDER_FILES),--ladder $(f)) \
	    $(if $(wildcard $(VALIDATION).jsonl),--validation $(VALIDATION).jsonl) \
	    > $(SETUPS)/pbmserv-answer.txt
	$(MAKE) data-pictures

# A study made beside the published one (`make data SETUPS=DIR`) is published once complete:
# `make data-publish SETUPS=DIR` moves each of DIR's files over the one of the same name in
# data/setups/ (the files `make data` does not make, the depth-4 and depth-5 tables, stay)
# and removes DIR. It refuses a study not finished: no answer yet, or a run's .part or
# .stale file left.
data-publish:
	test "$(SETUPS)" != data/setups -a -d "$(SETUPS)" || { echo "give the study's folder: make data-publish SETUPS=DIR" >&2; exit 1; }
	test -s $(SETUPS)/pbmserv-answer.txt || { echo "$(SETUPS): no answer yet: finish make data SETUPS=$(SETUPS) first" >&2; exit 1; }
	! ls $(SETUPS)/*.part $(SETUPS)/*.stale 2>/dev/null | grep . >&2 || { echo "$(SETUPS): a run's file is left (above)" >&2; exit 1; }
	mv -f $(SETUPS)/* data/setups/
	rmdir $(SETUPS)

# The published depth-3 table of every pair (data/setups/pbmserv-depth3.*), proved again by
# this checkout's engine, then its report and heat map: part of `make data`. About 15 CPU
# minutes. A table made by this checkout's engine is kept (so that `make data`, resumed in
# a later sitting, goes on to the games); one of another engine is first moved to
# $(DEPTH3).stale. (The depth-4 table, 4.5 CPU hours, is not remade here: docs/setups.md.)
DEPTH3 = $(SETUPS)/pbmserv-depth3.jsonl
data-tables:
	mkdir -p $(SETUPS)
	$(call retire,$(DEPTH3))
	if [ ! -f $(DEPTH3) ]; then \
	    gyges setups analyze --depth 3 --jobs 2 -q --out $(DEPTH3).part && \
	    $(PYTHON) -c "import json, sys; rows = open(sys.argv[1]).read().splitlines(); \
	        rows.sort(key=lambda r: (json.loads(r)['south'], json.loads(r)['north'])); \
	        open(sys.argv[2], 'w').write(''.join(r + '\\n' for r in rows))" \
	        $(DEPTH3).part $(DEPTH3) && \
	    rm $(DEPTH3).part; \
	fi
	gyges setups report $(DEPTH3) --svg $(SETUPS)/pbmserv-depth3.svg \
	    > $(SETUPS)/pbmserv-depth3-report.txt

# The engine's evaluation of every canonical pair (data/setups/pbmserv-evaluations.*, docs/
# setups.md): 4,068 searches of 200,000 nodes, about 4 CPU hours (2 workers: about 2
# hours); part of `make data`, after the games. Resumable: an interrupted run goes on from
# $(EVALUATIONS) itself, whose pairs are a seeded random sample while it grows (commit it as
# it grows); a file made by another engine is first moved to $(EVALUATIONS).stale. Then
# its report.
EVALUATIONS = $(SETUPS)/pbmserv-evaluations.jsonl
evaluations:
	$(call retire,$(EVALUATIONS))
	gyges setups evaluate --jobs 2 $(WITH_NETWORK) --out $(EVALUATIONS)
	gyges setups report $(EVALUATIONS) --svg $(SETUPS)/pbmserv-evaluations.svg \
	    > $(SETUPS)/pbmserv-evaluations-report.txt

# The validation block (docs/setups.md): each side's 8 best and 8 worst setups by the
# evaluations against the other side's 8 middle ones, 4,000 games at 10,000 nodes a move
# (about 1.7 CPU hours; the file resumes), then whether the games confirm the evaluations.
# Needs the finished evaluations: its pairs are drawn from them.
VALIDATION = $(SETUPS)/pbmserv-validation
validation:
	gyges setups validation-pairs --evaluations $(EVALUATIONS) > $(VALIDATION).pairs
	gyges setups rank --pairs $(VALIDATION).pairs --games 4000 --nodes 10000 --prove 2 \
	    --jobs 2 -q $(WITH_NETWORK) --out $(VALIDATION).jsonl
	gyges setups validate $(VALIDATION).jsonl --evaluations $(EVALUATIONS) \
	    > $(VALIDATION)-report.txt

# The strength ladder (docs/setups.md): one fixed sub-design, every 6th setup of each side in
# sorted order (15 x 15 = 225 pairs), 1,500 games at each of 1,000, 10,000 and 50,000 nodes
# a move (proof horizon 2), then the report of whether the first-move advantage and the
# ranking move between the rungs. About 4 CPU hours, nearly all of them the 50,000-node
# rung; each rung's file resumes.
LADDER_SETUPS = 112233,121233,123123,131223,132231,211233,213123,221133,231123,232113,311223,312231,321123,322113,331122
LADDER = $(SETUPS)/ladder
LADDER_NODES = 1000 10000 50000
# The rungs played so far, weakest first (the study's report gives South's score at each).
LADDER_FILES = $(foreach n,$(LADDER_NODES),$(wildcard $(LADDER)-$(n).jsonl))
ladder:
	for nodes in $(LADDER_NODES); do \
	    gyges setups rank --south $(LADDER_SETUPS) --north $(LADDER_SETUPS) --games 1500 \
	        --nodes $$nodes --prove 2 --jobs 2 -q $(WITH_NETWORK) --out $(LADDER)-$$nodes.jsonl \
	        || exit 1; \
	done
	gyges setups ladder $(foreach n,$(LADDER_NODES),$(LADDER)-$(n).jsonl) > $(LADDER)-report.txt

# The PNGs of the study's forest plot and pair map (docs/setups.md), each SVG rendered by a
# real browser at its natural size and 96 dpi (device scale 1: a CSS pixel a pixel). Run by
# `make data` after the report; alone, it redraws the PNGs from the SVGs in a few seconds.
BROWSER ?= chromium
define screenshot
	rm -f $(2)
	size=$$(sed -n 's/^<svg .* width="\([0-9]*\)" height="\([0-9]*\)".*/\1,\2/p' $(1)); \
	profile=$$(mktemp -d); \
	$(BROWSER) --headless --no-sandbox --disable-gpu --hide-scrollbars \
	    --user-data-dir=$$profile --force-device-scale-factor=1 --window-size=$$size \
	    --screenshot=$(abspath $(2)) file://$(abspath $(1)) 2>/dev/null; \
	rm -rf $$profile
	test -s $(2)
endef
data-pictures:
	$(call screenshot,$(SETUPS)/pbmserv-selfplay-forest.svg,$(SETUPS)/pbmserv-selfplay-forest.png)
	$(call screenshot,$(SETUPS)/pbmserv-selfplay.svg,$(SETUPS)/pbmserv-selfplay-map.png)
	$(call screenshot,$(SETUPS)/pbmserv-evaluations.svg,$(SETUPS)/pbmserv-evaluations.png)

# How true the engine's printed win probabilities are, measured on the training games
# (data/engine/training-games.jsonl.gz, which name the engine that played them): the report
# and the reliability diagram of docs/engine.md. About 2.5 minutes.
calibration:
	gyges engine-calibration data/engine/training-games.jsonl.gz -q \
	    --svg data/engine/calibration.svg > data/engine/calibration-report.txt

# The learned evaluations over the board, trained on the training games (the search uses
# one with builtin:network=FILE; the default is the linear evaluation), each with its fit
# recorded inside and its held-out report: data/engine/network.json (32 units, the first
# file's games, their results), network-128.json (128 units, both files, half the
# result and half the search's score), and two of 64 units on the games the labels cover,
# with their deeper scores and with the games' own: the first 5,466 games the labelling
# wrote (its file only grows, so they stay these); network-128-deeper.json and
# network-128-deeper-half-result.json, 128 units on all the games of that label file, the
# deeper score alone and half the game's result; network-128-deeper-2of3.json, the deeper
# score alone on the games of the first two label files; network-512-deeper.json, 512
# units on the deeper score alone of all three; network-512-attack.json, the same with the
# attack maps as inputs (--attack). About an hour.
LABELS_5466 = data/engine/training-labels-10000-part1of3-first-5466.jsonl
TRAINING_GAMES = data/engine/training-games.jsonl.gz data/engine/training-games-2.jsonl.gz
network:
	gyges engine-network data/engine/training-games.jsonl.gz -q \
	    --out data/engine/network.json > data/engine/network-report.txt
	gyges engine-network $(TRAINING_GAMES) --hidden 128 --epochs 10 --result-weight 0.5 -q \
	    --out data/engine/network-128.json > data/engine/network-128-report.txt
	head -n 5466 $(LABELS) > $(LABELS_5466)
	gyges engine-network $(TRAINING_GAMES) --only-games-of $(LABELS_5466) --hidden 64 \
	    --epochs 10 --result-weight 0.5 -q --out data/engine/network-64-own-scores.json \
	    > data/engine/network-64-own-scores-report.txt
	gyges engine-network $(TRAINING_GAMES) --only-games-of $(LABELS_5466) \
	    --labels $(LABELS_5466) --hidden 64 --epochs 10 --result-weight 0.5 -q \
	    --out data/engine/network-64-deeper.json > data/engine/network-64-deeper-report.txt
	rm $(LABELS_5466)
	gyges engine-network $(TRAINING_GAMES) --only-games-of $(LABELS) --labels $(LABELS) \
	    --hidden 128 --epochs 10 --result-weight 0 -q --out data/engine/network-128-deeper.json \
	    > data/engine/network-128-deeper-report.txt
	gyges engine-network $(TRAINING_GAMES) --only-games-of $(LABELS) --labels $(LABELS) \
	    --hidden 128 --epochs 10 --result-weight 0.5 -q \
	    --out data/engine/network-128-deeper-half-result.json \
	    > data/engine/network-128-deeper-half-result-report.txt
	gyges engine-network $(TRAINING_GAMES) --only-games-of $(LABELS) --only-games-of $(LABELS_0) \
	    --labels $(LABELS) --labels $(LABELS_0) --hidden 128 --epochs 10 --result-weight 0 -q \
	    --out data/engine/network-128-deeper-2of3.json \
	    > data/engine/network-128-deeper-2of3-report.txt
	gyges engine-network $(TRAINING_GAMES) $(foreach f,$(LABELS) $(LABELS_0) $(LABELS_2),\
	    --only-games-of $(f) --labels $(f)) --hidden 512 --epochs 10 --result-weight 0 -q \
	    --out data/engine/network-512-deeper.json > data/engine/network-512-deeper-report.txt
	gyges engine-network $(TRAINING_GAMES) $(foreach f,$(LABELS) $(LABELS_0) $(LABELS_2),\
	    --only-games-of $(f) --labels $(f)) --hidden 512 --epochs 10 --result-weight 0 \
	    --attack -q --out data/engine/network-512-attack.json \
	    > data/engine/network-512-attack-report.txt

# $(call calibrate,NETWORK,GAMES,STEM): NETWORK's win probabilities: 20,000 of its own
# self-play games at 1,000 nodes a move (seed 2: other setups and openings than the
# training games') into GAMES.gz, the scale fitted on them written into the network's
# file (its weights unchanged), then the report and reliability diagram of what it prints
# on that scale (STEM-calibration-report.txt, STEM-calibration.svg).
define calibrate
	gyges engine-data --games 20000 --nodes 1000 --random-plies 6 --seed 2 \
	    --network $(1) --jobs 2 -q --out $(2)
	gzip -n -f $(2)
	gyges engine-calibration $(2).gz -q --write-scale $(1) > /dev/null
	gyges engine-calibration $(2).gz -q --scale $$($(PYTHON) -c \
	    "from gyges.engine.network import Network; \
	    print(Network.load('$(1)').calibration)") \
	    --svg $(3)-calibration.svg > $(3)-calibration-report.txt
endef

# The win probabilities of network-512-deeper.json: 20,000 of its own self-play games at
# 1,000 nodes a move (seed 2: other setups and openings than the training games'), the
# scale fitted on them written into the network's file (its weights unchanged), then the
# report and reliability diagram of what it prints on that scale. About 30 minutes of two
# cores; run it after `make network`, which writes the network without a scale. (Games
# played before the scale was written record the scale 1.)
NETWORK_512 = data/engine/network-512-deeper.json
NETWORK_512_GAMES = data/engine/network-512-deeper-games.jsonl
network-calibration:
	$(call calibrate,$(NETWORK_512),$(NETWORK_512_GAMES),data/engine/network-512-deeper)

# Deeper labels of the training games, 10,000 nodes a position, a third of the games a file
# (game numbers 1, 0 and 2 modulo 3, in that order), each resumable: about 1.7 hours of two
# cores a third. The networks of deeper labels above are trained on the first file (LABELS),
# one on the first two, and one on all three.
LABELS = data/engine/training-labels-10000-part1of3.jsonl
LABELS_0 = data/engine/training-labels-10000-part0of3.jsonl
LABELS_2 = data/engine/training-labels-10000-part2of3.jsonl
labels:
	gyges engine-labels $(TRAINING_GAMES) --network linear --nodes 10000 --every 3 \
	    --part 1 --jobs 2 --out $(LABELS)
	gyges engine-labels $(TRAINING_GAMES) --network linear --nodes 10000 --every 3 \
	    --part 0 --jobs 2 --out $(LABELS_0)
	gyges engine-labels $(TRAINING_GAMES) --network linear --nodes 10000 --every 3 \
	    --part 2 --jobs 2 --out $(LABELS_2)

# The same labels for the third training file (games 51,661 on): a twelfth of its games a
# file (game numbers k modulo 12), about an hour of two cores each, each file resumable
# (also across a change to the engine's code: the label files and lines of one evaluation
# are read together, docs/engine.md). About 11 hours of two cores in all. Both labellings
# search with the linear evaluation (--network linear), whatever the default.
TRAINING_GAMES_3 = data/engine/training-games-3.jsonl.gz
LABEL_PARTS_3 = 0 1 2 3 4 5 6 7 8 9 10 11
labels-3:
	for k in $(LABEL_PARTS_3); do \
	    gyges engine-labels $(TRAINING_GAMES_3) --network linear --nodes 10000 --every 12 \
	        --part $$k --jobs 2 -q --out data/engine/training-labels-10000-games3-part$${k}of12.jsonl \
	        || exit 1; \
	done

# The same for the fourth training file (games 151,661 to 183,660): a quarter of its games
# a file, about an hour of two cores each.
TRAINING_GAMES_4 = data/engine/training-games-4.jsonl.gz
# Two of the four quarters are labelled: with the first three files they give about
# 2.4 million positions with a deeper score, a little over 2 million of them trained on (every
# 10th game held out); each further quarter (--part 2, --part 3) would add about 110,000
# more (about 90,000 trained on) for about another hour.
LABEL_PARTS_4 = 0 1
labels-4:
	for k in $(LABEL_PARTS_4); do \
	    gyges engine-labels $(TRAINING_GAMES_4) --network linear --nodes 10000 --every 4 \
	        --part $$k --jobs 2 -q --out data/engine/training-labels-10000-games4-part$${k}of4.jsonl \
	        || exit 1; \
	done

# The network to ship, once every label part above is complete: 512 units trained on the
# games of every label file (about 2.4 million positions with a deeper score, every 10th
# game held out), each position's target the deeper score (--result-weight 0, as network-512-deeper.json),
# reading the attack maps too (--attack, as network-512-attack.json), 16 epochs with the
# step falling to 0.00005. About 20 minutes (2026-11-29: 18, nine of them reading the
# games; data/engine/README.md); after each epoch its state is saved beside the network, and
# an interrupted run resumes from it. Then `make network-final-calibration` measures its
# scale on 20,000 of its own self-play games as network-calibration does (half an hour of
# two cores), with the engine that ships it: the games name the engine that played them.
TRAINING_GAMES_ALL = $(TRAINING_GAMES) $(TRAINING_GAMES_3) $(TRAINING_GAMES_4)
LABELS_ALL = $(LABELS) $(LABELS_0) $(LABELS_2) \
    $(foreach k,$(LABEL_PARTS_3),data/engine/training-labels-10000-games3-part$(k)of12.jsonl) \
    $(foreach k,$(LABEL_PARTS_4),data/engine/training-labels-10000-games4-part$(k)of4.jsonl)
NETWORK_FINAL = solver/gyges/engine/network.json
NETWORK_FINAL_GAMES = data/engine/network-final-games.jsonl
network-final:
	gyges engine-network $(TRAINING_GAMES_ALL) $(foreach f,$(LABELS_ALL),\
	    --only-games-of $(f) --labels $(f)) --hidden 512 --epochs 16 --final-rate 0.00005 \
	    --result-weight 0 --attack --held-out-every 10 --out $(NETWORK_FINAL) \
	    > data/engine/network-final-report.txt
network-final-calibration:
	$(call calibrate,$(NETWORK_FINAL),$(NETWORK_FINAL_GAMES),data/engine/network-final)

# The engine that ships against the engine before the learned evaluation: the linear
# evaluation, which this checkout still plays move for move as it did (`--network
# linear`; tests/test_published_games.py replays the linear evaluation's published games).
# Both play over UGI (`gyges ugi`: each move searched afresh, the table cleared): the
# builtin engine keeps its table from move to move, which is worth +45 Elo [+7, +85] at
# 10,000 nodes against the same engine over UGI (data/engine/README.md,
# builtin-vs-ugi-10000-nodes.jsonl), so a builtin against a UGI program would not measure
# the evaluations alone. Paired openings, colours swapped, each match a pentanomial SPRT
# of +100 against +150 Elo (H1 accepted: at least +100 at the 5% level), deciding from
# 200 games on (six pairs won 2-0 would otherwise decide it), at most 2,000 games: at
# 10,000 nodes a move, 0.05 s and 0.2 s a move, under the pbmserv rules and Helios's. The
# games in data/engine/against-linear-*.jsonl; the same command prints each match's
# summary from its file. About half an hour of two cores when each match stops at 200.
define against_linear
	gyges match 'ugi:gyges ugi --rules $(2)' 'ugi:gyges ugi --network linear --rules $(2)' \
	    $(1) --games 2000 --sprt 100,150 --min-games 200 --jobs 2 --rules $(2) \
	    -q --out data/engine/against-linear-$(3)-$(2).jsonl
endef
against-linear:
	$(call against_linear,--nodes 10000,pbmserv,10000-nodes)
	$(call against_linear,--nodes 10000,helios,10000-nodes)
	$(call against_linear,--time 0.05,pbmserv,0.05s)
	$(call against_linear,--time 0.05,helios,0.05s)
	$(call against_linear,--time 0.2,pbmserv,0.2s)
	$(call against_linear,--time 0.2,helios,0.2s)

# The engine against Helios (built as docs/engine.md says: fetch its snapshot, then
# ../shared/peer/build.sh), under its rules, one core each (gyges on core 0, Helios on
# core 1), one game at a time, 200 games each: at equal time (0.5 s a move), at ten times
# Helios's time (gyges 0.05 s, Helios 0.5 s) and at twenty times (gyges 0.05 s, Helios
# 1 s); then the win probabilities gyges printed in the equal-time games against their
# results (every game measured). About an hour and a quarter (2026-11-29: 18, 14 and 28 minutes).
HELIOS ?= /tmp/peer/ugi/target/release/gyges_engine
HELIOS_UGI = ugi:taskset -c 1 $(HELIOS)
helios-matches:
	taskset -c 0 gyges match builtin "$(HELIOS_UGI)" --time 0.5 --games 200 --jobs 1 \
	    --rules helios -q --out data/engine/helios-0.5s-0.5s.jsonl
	taskset -c 0 gyges match builtin:time=0.05 "$(HELIOS_UGI)" --time 0.5 --games 200 \
	    --jobs 1 --rules helios -q --out data/engine/helios-0.05s-0.5s.jsonl
	taskset -c 0 gyges match builtin:time=0.05 "$(HELIOS_UGI)" --time 1.0 --games 200 \
	    --jobs 1 --rules helios -q --out data/engine/helios-0.05s-1s.jsonl
	gyges engine-calibration data/engine/helios-0.5s-0.5s.jsonl --held-out-every 1 -q \
	    --svg data/engine/helios-0.5s-calibration.svg \
	    > data/engine/helios-0.5s-calibration-report.txt
