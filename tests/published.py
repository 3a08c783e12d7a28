"""What the published-data tests share: which evaluation a published file was made with.

A published file names the engine that made it (:class:`~gyges.engine.identity.
EngineIdentity`). This checkout can make it again if it names one of the evaluations this
checkout has: the default one (the shipped network) or the linear one, which stays
selectable (``--network linear``) and plays the moves it always played. Any other
evaluation fails the test that asks, with what to run.
"""

from __future__ import annotations

import pytest

from gyges.engine.identity import EngineIdentity, weights_digest
from gyges.engine.network import LINEAR


def evaluation_named(made_by: EngineIdentity, path: str) -> str | None:
    """The evaluation ``made_by`` names, as ``play_task`` and ``evaluation_task`` take it:
    None for the default one, :data:`~gyges.engine.network.LINEAR` for the linear one."""
    if made_by.weights == weights_digest():
        return None
    if made_by.weights == weights_digest(network=None):
        return LINEAR
    pytest.fail(f"{path} was made by {made_by}, whose evaluation is neither this "
                f"checkout's default (weights {weights_digest()}) nor its linear one "
                f"(weights {weights_digest(network=None)}): run `make data` to make it "
                "again and commit the files it writes")
