"""Rule sets (gyges.game.rules): the option enums, the JSON form, the closest preset and the
policy that says which rules are in force (RuleRequest, combine_rules)."""

from __future__ import annotations

import itertools
import json
import pickle
import random

import pytest
import yaml

from gyges.game.rules import (
    OPTION_TYPES,
    OPTIONS,
    PRESETS,
    Blocked,
    Replace,
    RuleError,
    RuleRequest,
    RuleSet,
    Taboo,
    closest_preset,
    combine_rules,
    rules_from,
)


def random_rules(rng: random.Random) -> RuleSet:
    return RuleSet().with_options({key: rng.choice(values) for key, values in OPTIONS.items()})


def test_every_option_value_is_an_enum_member_that_reads_as_its_name():
    assert set(OPTION_TYPES) == set(OPTIONS)
    for key, kind in OPTION_TYPES.items():
        assert [m.value for m in kind] == list(OPTIONS[key])
        for member in kind:
            assert member == member.value and str(member) == member.value
            assert f"{member}" == member.value and repr(member) == repr(member.value)
            assert json.dumps(member) == json.dumps(member.value)
            assert kind(member.value) is member


def test_fields_hold_enum_members_whether_given_as_names_or_members():
    rules = RuleSet(taboo="entry", blocked="next-row")
    assert rules.taboo is Taboo.ENTRY and rules.blocked is Blocked.NEXT_ROW
    assert rules == RuleSet(taboo=Taboo.ENTRY, blocked=Blocked.NEXT_ROW)
    assert hash(rules) == hash(RuleSet(taboo=Taboo.ENTRY, blocked=Blocked.NEXT_ROW))
    assert rules.with_options({"replace": "off"}).replace is Replace.OFF
    assert all(type(v) is str for v in rules.options().values())     # plain names


def test_options_dump_to_yaml_as_plain_names():
    text = yaml.safe_dump(PRESETS["dorbec"].options())
    assert "taboo: entry" in text and "blocked: next-row" in text


def test_a_bad_value_is_refused_with_the_values_allowed():
    with pytest.raises(RuleError, match=r"rule taboo cannot be 'edge': use one of connection, "
                                        r"entry$"):
        RuleSet(taboo="edge")
    with pytest.raises(RuleError, match="rule blocked cannot be None"):
        RuleSet(blocked=None)  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="rule taboo cannot be 'anywhere'"):
        RuleSet(taboo=Replace.ANYWHERE)  # type: ignore[arg-type]


def test_flags_are_those_of_the_names():
    """The core's bit flags depend on the values only, member or plain name."""
    rng = random.Random(5)
    for _ in range(50):
        rules = random_rules(rng)
        plain = object.__new__(RuleSet)
        for key, value in rules.options().items():
            object.__setattr__(plain, key.replace("-", "_"), value)
        assert plain.flags() == rules.flags()
    assert len({r.flags() for r in PRESETS.values()}) == len(PRESETS)
    assert PRESETS["summary"].flags() == PRESETS["bga"].flags() - 64 + 32


def test_json_round_trip_and_pickle():
    rng = random.Random(7)
    for rules in [*PRESETS.values(), *(random_rules(rng) for _ in range(40))]:
        data = json.loads(json.dumps(rules.to_json()))
        assert data == rules.options()
        assert RuleSet.from_json(data) == rules
        assert pickle.loads(pickle.dumps(rules)) == rules
    assert RuleSet.from_json({"taboo": "entry"}) == RuleSet(taboo="entry")  # the rest: pbmserv


@pytest.mark.parametrize("data, message", [
    ({"tabu": "entry"}, "unknown rule 'tabu'"),
    ({"taboo": "edge"}, "rule taboo cannot be 'edge'"),
    ({"taboo": 1}, "rule taboo cannot be 1"),
    (["taboo"], "rules are an object of options"),
])
def test_from_json_refuses(data, message):
    with pytest.raises(RuleError, match=message):
        RuleSet.from_json(data)


def test_repr_is_the_closest_preset_and_what_differs():
    for name, rules in PRESETS.items():
        assert repr(rules) == f"RuleSet({name!r})"
    custom = PRESETS["dorbec"].with_options({"replace": "shore", "null-move": "forbidden"})
    assert closest_preset(custom) == ("dorbec", {"replace": "shore", "null-move": "forbidden"})
    assert repr(custom) == "RuleSet('dorbec', replace='shore', null_move='forbidden')"


def test_closest_preset_differs_in_the_fewest_options():
    rng = random.Random(11)
    for _ in range(60):
        rules = random_rules(rng)
        name, diff = closest_preset(rules)
        assert PRESETS[name].with_options(diff) == rules
        fewest = min(sum(p.options()[k] != v for k, v in rules.options().items())
                     for p in PRESETS.values())
        assert len(diff) == fewest


def test_request_parse_checks_the_preset_first_then_each_setting():
    assert RuleRequest.parse() == RuleRequest() and not RuleRequest()
    assert RuleRequest.parse("bga", ["taboo=entry"]) == RuleRequest("bga", (("taboo", "entry"),))
    with pytest.raises(RuleError, match="unknown rule preset 'nope'"):
        RuleRequest.parse("nope", ["tabu=entry"])
    with pytest.raises(RuleError, match="unknown rule 'tabu'"):
        RuleRequest.parse("bga", ["taboo=entry", "tabu=entry"])
    with pytest.raises(RuleError, match="'taboo' is not a rule setting"):
        RuleRequest.parse(None, ["taboo"])


def test_request_rules_are_rules_from():
    for name, settings in itertools.product(PRESETS, [(), ("replace=off",),
                                                      ("taboo=entry", "win=unstoppable")]):
        assert RuleRequest.parse(name, settings).rules() == rules_from(name, settings)
    assert RuleRequest.parse(None, ["taboo=entry"]).rules() == rules_from("pbmserv",
                                                                          ["taboo=entry"])


def test_combine_rules_a_preset_replaces_settings_amend():
    dorbec, bga = PRESETS["dorbec"], PRESETS["bga"]
    off = RuleRequest.parse(None, ["replace=off"])
    assert combine_rules(None, RuleRequest()) == PRESETS["pbmserv"]
    assert combine_rules(None, off) == PRESETS["pbmserv"].with_options({"replace": "off"})
    assert combine_rules(dorbec, RuleRequest()) is dorbec
    assert combine_rules(dorbec, off) == PRESETS["dorbec-beginner"]
    assert combine_rules(dorbec, RuleRequest.parse("bga")) == bga
    assert combine_rules(dorbec, RuleRequest.parse("bga", ["replace=off"])) == \
        bga.with_options({"replace": "off"})
