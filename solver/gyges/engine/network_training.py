"""Training the learned evaluation (:mod:`gyges.engine.network`) from self-play games:
:func:`train_network` (numpy; the network it writes loads without it).

Every position of a game of ``gyges engine-data`` (:mod:`gyges.engine.dataset`) before a
move, where the side to move can neither land at once nor has lost to a threat it cannot
parry (what the search's horizon evaluates), gives the board's inputs (and its attack maps'
for a network that reads them), the present
evaluation's features and value (:meth:`gyges.engine.Search.evaluate`), and a target for
the side to move: ``result_weight`` times the game's result (1 a win, 0 a loss, 1/2 a
draw) plus the rest times the win probability of the score the game's search gave the
move (the result alone for a random move), or of a deeper search's score where a label
file (:mod:`gyges.engine.labels`) has one. Every ``held_out_every``-th game (by number) is
held out; the others, each position also mirrored left to right (the rules are the same
in a mirror), train the float network by Adam on the cross-entropy, in a seeded order.
After each epoch the training's whole state can be saved to a checkpoint file, from which
the same data and settings resume where an interrupted run stopped and end with the same
network as an uninterrupted one. Its weights are then rounded to integers; the held-out
games measure the integer network
against the present (linear) evaluation by log-loss and Brier score of the game's result
(whatever the training's target), and by the cross-entropy against the training's own
target (with deeper labels: how near the evaluation comes to the deeper search).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from gyges.engine._engine import Search
from gyges.engine.calibration import recorded_moves
from gyges.engine.logistic import numpy
from gyges.engine.network import ATTACK_INPUTS, INPUTS, QA, QB, Network, board_inputs
from gyges.engine.score import Score
from gyges.engine.weights import Weights
from gyges.game.rules import PRESETS

__all__ = ["NetSettings", "TrainingData", "data_digest", "network_positions",
           "train_network"]


@dataclasses.dataclass(frozen=True)
class NetSettings:
    """How a network is trained: ``hidden`` units, ``epochs`` over the training
    positions in batches of ``batch``, Adam's step ``rate`` (falling along a half cosine
    to ``final_rate`` by the last batch when that is set, else constant), the target's
    ``result_weight``, with or without the present ``features``, with or without the
    ``attack`` maps as inputs, ``held_out_every``-th game held out, ``seed`` for the
    first weights and the order."""

    hidden: int = 32
    epochs: int = 4
    batch: int = 512
    rate: float = 0.002
    final_rate: float | None = None
    result_weight: float = 1.0
    features: bool = True
    held_out_every: int = 5
    seed: int = 1
    attack: bool = False

    def to_json(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        if self.final_rate is None:          # (the files of a constant step, as before)
            del out["final_rate"]
        if not self.attack:                  # (the files of the board's inputs alone)
            del out["attack"]
        return out

    def step_size(self, step: int, steps: int) -> float:
        """Adam's step size at batch ``step`` (0-based) of ``steps``.

        >>> s = NetSettings(rate=0.002, final_rate=0.0002)
        >>> s.step_size(0, 101), round(s.step_size(50, 101), 6), round(s.step_size(100, 101), 6)
        (0.002, 0.0011, 0.0002)
        >>> NetSettings(rate=0.002).step_size(99, 100)
        0.002
        """
        if self.final_rate is None or steps <= 1:
            return self.rate
        t = step / (steps - 1)
        return self.final_rate + (self.rate - self.final_rate) * 0.5 * (1 + math.cos(math.pi * t))


@dataclasses.dataclass
class TrainingData:
    """The positions as arrays: ``inputs`` (0/1, one row a position: the board's inputs,
    then the attack maps' when they were read), ``features``, the
    present evaluation's ``linear`` value, the training ``target``, the game's ``result``
    for the side to move (what the held-out games are measured against), the ``game``
    number; ``labelled``, how many targets took a deeper search's score."""

    inputs: Any
    features: Any
    linear: Any
    target: Any
    result: Any
    game: Any
    labelled: int = 0


def _mirror_slot(slot: int) -> int:
    return slot // 6 * 6 + 5 - slot % 6


def _mirror_input(i: int) -> int:
    if i >= INPUTS:                           # an attack map's slot
        k, slot = divmod(i - INPUTS, 36)
        return INPUTS + 36 * k + _mirror_slot(slot)
    slot, size = divmod(i, 3)
    return 3 * _mirror_slot(slot) + size


#: Each input's place in the board's mirror image (left to right), attack maps included.
MIRROR = [_mirror_input(i) for i in range(INPUTS + ATTACK_INPUTS)]


def _oriented_maps(maps: Sequence[int], side: int) -> list[int]:
    """The active attack-map inputs of the compiled ``Search.attack_maps`` masks, seen
    from ``side`` (0 South, 1 North) as :func:`gyges.engine.network.attack_inputs`, in
    its order (ascending)."""
    out = []
    for k, mask in enumerate(maps):
        for slot in range(36):
            if mask >> slot & 1:
                o = slot if side == 0 else (5 - slot // 6) * 6 + slot % 6
                out.append(INPUTS + 36 * k + o)
    return sorted(out)


def network_positions(records: Iterable[Mapping[str, Any]], result_weight: float = 1.0,
                      progress: Callable[[int], None] | None = None,
                      labels: Mapping[int, Sequence[int | None]] | None = None,
                      attack: bool = False) -> TrainingData:
    """The training positions of ``records`` (see the module); ``labels``, deeper scores
    by game number (:func:`gyges.engine.labels.read_labels`), take the place of the game's
    own where they have one; ``attack``: with the attack maps' inputs."""
    np = numpy()
    searchers: dict[str, Search] = {}
    weights = list(Weights.load().values)
    rows: list[list[int]] = []
    feats: list[tuple[float, ...]] = []
    linear: list[float] = []
    target: list[float] = []
    results: list[float] = []
    labelled = 0
    games: list[int] = []
    for n, record in enumerate(records, 1):
        if progress is not None and n % 1000 == 0:
            progress(n)
        name = record["rules"]
        rules = PRESETS[name]
        search = searchers.setdefault(name, Search(rules.flags(), weights, 10))
        result = record["result"]
        deep = (labels or {}).get(int(record["game"]), ())
        for i, m in enumerate(recorded_moves(record)):
            if m.move.is_win:
                break
            side = m.move.side
            before = [b.key for b in m.before]
            score, features = search.evaluate(m.position.key, side.index, before)
            if features is None:
                continue
            won = 0.5 if result not in ("south", "north") else \
                float(result == side.name.lower())
            t = won
            searched = m.score
            if i < len(deep) and deep[i] is not None:
                searched = deep[i]
                labelled += result_weight < 1
            if searched is not None and result_weight < 1:
                t = result_weight * won + (1 - result_weight) * \
                    Score.from_int(searched).win_probability
            active = board_inputs(m.position)
            if attack:
                active += _oriented_maps(search.attack_maps(m.position.key, side.index, before),
                                         side.index)
            rows.append(active)
            feats.append(features)
            linear.append(score)
            target.append(t)
            results.append(won)
            games.append(int(record["game"]))
    x = np.zeros((len(rows), INPUTS + ATTACK_INPUTS * attack), dtype=np.uint8)
    for r, active in enumerate(rows):
        x[r, active] = 1
    return TrainingData(x, np.array(feats, dtype=np.float32),
                        np.array(linear, dtype=np.float64), np.array(target, dtype=np.float32),
                        np.array(results, dtype=np.float32), np.array(games, dtype=np.int64),
                        labelled)


def _sigmoid(np: Any, z: Any) -> Any:
    return 1.0 / (1.0 + np.exp(-np.clip(z, -40, 40)))


def _scores(np: Any, p: Any, y: Any) -> tuple[float, float]:
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return (float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))),
            float(np.mean((p - y) ** 2)))


def data_digest(data: TrainingData) -> str:
    """A digest of the positions and targets of ``data`` (16 hex digits): what a
    checkpoint must have been trained on to be resumed."""
    h = hashlib.sha256()
    for a in (data.inputs, data.features, data.target, data.game):
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


_STATE = ("w1", "b1", "w2", "b2", "wf")


def _save_checkpoint(np: Any, path: Path, about: dict[str, Any], params: list[Any],
                     m: list[Any], v: list[Any], rng: Any) -> None:
    """Write the training's state after an epoch to ``path`` (whole or not at all)."""
    arrays = {f"{kind}_{name}": a for kind, group in (("p", params), ("m", m), ("v", v))
              for name, a in zip(_STATE, group, strict=True)}
    about = {**about, "rng": rng.bit_generator.state}
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, about=np.array(json.dumps(about)), **arrays)
    os.replace(tmp, path)


def _load_checkpoint(np: Any, path: Path, settings: NetSettings, digest: str
                     ) -> tuple[dict[str, Any], list[Any], list[Any], list[Any]]:
    try:
        with np.load(path) as z:
            about = json.loads(str(z["about"]))
            state = [[z[f"{kind}_{name}"] for name in _STATE] for kind in "pmv"]
    except (OSError, ValueError, KeyError) as e:
        raise ValueError(f"{path}: not a training checkpoint ({e}); remove it to start "
                         "afresh") from None
    if about.get("settings") != settings.to_json():
        raise ValueError(f"{path}: a checkpoint of other settings ({about.get('settings')}); "
                         "train with those, or remove it to start afresh")
    if about.get("data") != digest:
        raise ValueError(f"{path}: a checkpoint of other positions (data {about.get('data')}, "
                         f"these {digest}); train on those, or remove it to start afresh")
    return about, *state


def train_network(data: TrainingData, settings: NetSettings = NetSettings(),
                  progress: Callable[[str], None] | None = None,
                  checkpoint: str | Path | None = None) -> tuple[Network, str]:
    """Train a network on ``data`` (see the module): the integer network, with what made
    it under ``fit``, and the report of the held-out games' scores.

    With ``checkpoint``, the state is saved there after each epoch, and a run that finds
    one (of the same data and settings: else ``ValueError``) resumes from it; the file is
    left for the caller to remove once the network is safe."""
    np = numpy()
    inputs = data.inputs.shape[1]
    if inputs != INPUTS + ATTACK_INPUTS * settings.attack:
        raise ValueError(f"{inputs} inputs a position, where the settings read "
                         f"{'' if settings.attack else 'no '}attack maps")
    rng = np.random.default_rng(settings.seed)
    held = data.game % settings.held_out_every == 0
    train = ~held
    x = data.inputs[train]                                 # 0/1 (bytes: made floats a batch
    x = np.concatenate([x, x[:, MIRROR[:inputs]]])         # at a time); each and its mirror
    f = np.concatenate([data.features[train]] * 2) if settings.features else None
    y = np.concatenate([data.target[train]] * 2)
    h = settings.hidden
    w1 = rng.normal(0, 0.1, (inputs, h)).astype(np.float32)
    b1 = np.full(h, 0.5, dtype=np.float32)
    w2 = rng.normal(0, 0.1, h).astype(np.float32)
    b2 = np.zeros(1, dtype=np.float32)
    wf = (np.array(Weights.load().values, dtype=np.float32) if settings.features
          else np.zeros(0, dtype=np.float32))
    params = [w1, b1, w2, b2, wf]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    beta1, beta2, eps, step = 0.9, 0.999, 1e-8, 0
    n = len(y)
    steps = settings.epochs * -(-n // settings.batch)
    xh_f = data.inputs[held].astype(np.float32)
    fh = data.features[held] if settings.features else None
    th_f = data.target[held].astype(np.float64)
    epoch_losses: list[float] = []
    first_epoch = 0
    digest = data_digest(data) if checkpoint is not None else ""
    if checkpoint is not None and Path(checkpoint).exists():
        about, saved, m, v = _load_checkpoint(np, Path(checkpoint), settings, digest)
        for p_, a in zip(params, saved, strict=True):
            p_[...] = a
        rng.bit_generator.state = about["rng"]
        first_epoch, step, epoch_losses = about["epochs"], about["step"], about["losses"]
        if progress is not None:
            progress(f"resuming after epoch {first_epoch} of {settings.epochs} ({checkpoint})")
    for epoch in range(first_epoch, settings.epochs):
        order = rng.permutation(n)
        for start in range(0, n, settings.batch):
            idx = order[start:start + settings.batch]
            xb, yb = x[idx].astype(np.float32), y[idx]
            a = xb @ w1 + b1
            hid = np.clip(a, 0.0, 1.0)
            z = hid @ w2 + b2[0]
            if f is not None:
                z = z + f[idx] @ wf
            p = _sigmoid(np, z)
            dz = (p - yb) / len(idx)
            gw2 = hid.T @ dz
            gb2 = np.array([dz.sum()], dtype=np.float32)
            da = np.outer(dz, w2) * ((a > 0) & (a < 1))
            grads = [xb.T @ da, da.sum(axis=0), gw2, gb2,
                     (f[idx].T @ dz) if f is not None else wf]
            rate = settings.step_size(step, steps)
            step += 1
            for k, (p_, g) in enumerate(zip(params, grads, strict=True)):
                if p_.size == 0:
                    continue
                m[k] = beta1 * m[k] + (1 - beta1) * g
                v[k] = beta2 * v[k] + (1 - beta2) * g * g
                mh = m[k] / (1 - beta1 ** step)
                vh = v[k] / (1 - beta2 ** step)
                p_ -= (rate * mh / (np.sqrt(vh) + eps)).astype(p_.dtype)
        # the float network's cross-entropy on the held-out positions, after each epoch
        zh = np.clip(xh_f @ w1 + b1, 0.0, 1.0) @ w2 + b2[0]
        if fh is not None:
            zh = zh + fh @ wf
        epoch_losses.append(round(_scores(np, _sigmoid(np, zh.astype(np.float64)), th_f)[0], 4))
        if checkpoint is not None:
            _save_checkpoint(np, Path(checkpoint),
                             {"settings": settings.to_json(), "data": digest,
                              "epochs": epoch + 1, "step": step, "losses": epoch_losses},
                             params, m, v, rng)
        if progress is not None:
            progress(f"epoch {epoch + 1} of {settings.epochs}: held-out cross-entropy "
                     f"{epoch_losses[-1]:.4f}")
    net = Network(tuple(tuple(int(round(float(w) * QA)) for w in row) for row in w1),
                  tuple(int(round(float(b) * QA)) for b in b1),
                  tuple(int(round(float(w) * QB)) for w in w2), int(round(float(b2[0]) * QB)),
                  tuple(float(w) * 100 for w in wf))
    # the held-out games: the integer network against the present evaluation
    xh = data.inputs[held].astype(np.int64)
    acc = xh @ np.array(net.w1, dtype=np.int64) + np.array(net.b1, dtype=np.int64)
    total = (np.clip(acc, 0, QA) @ np.array(net.w2, dtype=np.int64) + net.b2 * QA) * 100
    den = QA * QB
    out = np.where(total >= 0, (total + den // 2) // den, -((-total + den // 2) // den))
    value = out.astype(np.float64)
    if settings.features:
        value = value + np.rint(data.features[held].astype(np.float64)
                                @ np.array(net.features, dtype=np.float64))
    yh = data.result[held].astype(np.float64)
    net_ll, net_brier = _scores(np, _sigmoid(np, value / 100), yh)
    lin_ll, lin_brier = _scores(np, _sigmoid(np, data.linear[held] / 100), yh)
    th = data.target[held].astype(np.float64)
    net_t, lin_t = (_scores(np, _sigmoid(np, w / 100), th)[0]    # cross-entropy
                    for w in (value, data.linear[held]))
    rate = float(np.mean(data.result[train]))
    base_ll, base_brier = _scores(np, np.full(len(yh), rate), yh)
    fit = {"settings": settings.to_json(), "positions": int(train.sum()),
           "labelled_positions": data.labelled,
           "held_out_positions": int(held.sum()),
           "held_out": {"network": {"log_loss": round(net_ll, 4), "brier": round(net_brier, 4)},
                        "linear": {"log_loss": round(lin_ll, 4), "brier": round(lin_brier, 4)},
                        "base_rate": {"log_loss": round(base_ll, 4),
                                      "brier": round(base_brier, 4)}},
           "held_out_target": {"network": round(net_t, 4), "linear": round(lin_t, 4)},
           "held_out_target_by_epoch": epoch_losses}
    net = dataclasses.replace(net, fit=fit)
    target = "the game's result" if settings.result_weight == 1 else \
        f"{settings.result_weight:g} x result + {1 - settings.result_weight:g} x search"
    if data.labelled and settings.result_weight < 1:
        target += f" (a deeper search's for {data.labelled:,} positions)"
    lines = [f"trained on {fit['positions']:,} positions (and their mirrors), "
             f"{settings.hidden} hidden units, {'with' if settings.features else 'without'} "
             f"the present features, {'with the attack maps, ' if settings.attack else ''}"
             f"{settings.epochs} epochs; target: {target}",
             f"held out: {fit['held_out_positions']:,} positions (every "
             f"{settings.held_out_every}th game), against the game's result",
             f"{'':28}{'log-loss':>10}{'Brier':>8}",
             f"  {'the network (integer)':<26}{net_ll:>10.4f}{net_brier:>8.4f}",
             f"  {'the present evaluation':<26}{lin_ll:>10.4f}{lin_brier:>8.4f}",
             f"  {'base rate ' + format(rate, '.3f'):<26}{base_ll:>10.4f}{base_brier:>8.4f}",
             f"against the training target (cross-entropy): the network {net_t:.4f}, "
             f"the present evaluation {lin_t:.4f}",
             "after each epoch (the float network): "
             + " ".join(f"{x:.4f}" for x in epoch_losses)]
    if not math.isfinite(net_ll):
        lines.append("the network's loss is not finite: train with a smaller --rate")
    return net, "\n".join(lines) + "\n"

