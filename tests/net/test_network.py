"""Network battles' engine and protocol without sockets (#45): hash-chain dice worked by hand
from the issue's procedure, hidden plots, the log's replay by ``verify``, and the protocol's
refusals. Over real sockets: tests/net/test_network_play.py."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import game
from game import Battle, HashChain, IllegalAction, Pass, PlotMission, fair
from game.net.fairplay import FairPlay, Fault, ProtocolError, Secrets, decode
from game.net.verify import verify_log
from game.rules.phases.hidden import hidden_due


def chains(battle, length=50):
    """Two fixed chains (secrets 1 and 2), one per side, started on ``battle``."""
    ch = {s: HashChain(f"{i + 1:064x}", length) for i, s in enumerate(battle.sides)}
    battle.start_network({s: c.end for s, c in ch.items()}, length)
    return ch


def elements(ch, i):
    return {s: c.element(i) for s, c in ch.items()}


# ------------------------------------------------------------------ the hash chains


def test_a_chain_element_hashes_to_the_one_before_down_to_the_end():
    c = HashChain(f"{7:064x}", 5)
    assert fair.chain_step(c.element(0)) == c.end
    for i in range(1, 5):
        assert fair.follows(c.element(i), c.element(i - 1))
    assert not fair.follows(c.element(2), c.element(0))
    assert not fair.follows("zz" * 32, c.end)
    with pytest.raises(ValueError):
        c.element(5)


def test_the_dice_of_an_action_are_the_stream_seeded_by_both_elements_and_its_index():
    """Worked by hand from the issue: action 1 (B's Ready) starts turn 1, whose initiative
    (2D6 + cohesion each, 000 05.00 step 1) and orders (2D6 each, 000 08.02.01) are the first
    eight draws of a stream seeded by B's element, A's element and the index 1."""
    b = Battle(game.load_scenario("maps/modern-skirmish.json"), 7)
    ch = chains(b)
    b.apply(Pass("A"), elements(ch, 0))
    events = b.apply(Pass("B"), elements(ch, 1))
    e = elements(ch, 1)
    rng = random.Random(fair.action_seed(e["B"], e["A"], 1))
    stream = [rng.randint(1, 6) for _ in range(8)]
    ini = next(ev for ev in events if ev["event"] == "initiative")
    orders = [ev for ev in events if ev["event"] == "orders"]
    logged = ini["rolls"]["A"]["dice"] + ini["rolls"]["B"]["dice"]
    logged += orders[0]["dice"] + orders[1]["dice"]
    assert logged == stream
    # the action line comes first, naming the action and both elements
    line = events[0]
    assert (line["event"], line["index"], line["side"]) == ("action", 1, "B")
    assert line["elements"] == e and line["action"] == {"kind": "pass", "side": "B"}


@pytest.mark.parametrize(
    "bad, why",
    [
        ({"A": "0" * 64}, "needs each side's chain element"),
        ("swap", "does not hash to its element before"),
        ("reuse", "does not hash to its element before"),
        (None, "needs each side's chain element"),
    ],
)
def test_an_action_whose_elements_do_not_follow_the_chains_is_refused_and_changes_nothing(bad, why):
    b = Battle(game.load_scenario("maps/modern-skirmish.json"), 7)
    ch = chains(b)
    b.apply(Pass("A"), elements(ch, 0))
    before = (b.state_hash(), len(b.log.events), b.dice.digest())
    given = bad
    if bad == "swap":
        given = {"A": ch["B"].element(1), "B": ch["A"].element(1)}
    elif bad == "reuse":
        given = elements(ch, 0)
    with pytest.raises(IllegalAction, match=why):
        b.apply(Pass("B"), given)
    assert (b.state_hash(), len(b.log.events), b.dice.digest()) == before
    b.apply(Pass("B"), elements(ch, 1))  # the right ones go through
    assert b.state.turn == 1


def test_a_refused_network_action_leaves_no_action_line_and_no_die_rolled(tmp_path):
    b = Battle(game.load_scenario("maps/modern-skirmish.json"), 7, log_path=tmp_path / "n.log")
    ch = chains(b)
    size = (tmp_path / "n.log").stat().st_size
    with pytest.raises(IllegalAction):
        b.apply(game.Regroup("A", "nope", "1"), elements(ch, 0))
    assert (tmp_path / "n.log").stat().st_size == size
    assert [e["event"] for e in b.log.events] == ["start", "network"]


def test_hotseat_battles_refuse_elements_and_keep_their_seeded_dice():
    b = Battle(game.load_scenario("maps/modern-skirmish.json"), 7)
    with pytest.raises(IllegalAction, match="network battles only"):
        b.apply(Pass("A"), {"A": "0" * 64, "B": "0" * 64})
    assert not b.is_network and b.state.chains is None


# ------------------------------------------------------------------ hidden plots


def drive(b, ch, until, kept=None):
    """Play ``b`` with two veterans until ``until()`` (or the end): their plots hidden (kept
    in ``kept`` by commitment) and revealed by their owner as they land."""
    from game.ai.scripted import ScriptedAI

    kept = {} if kept is None else kept
    ai = getattr(b, "_test_ai", None) or {s: ScriptedAI(seed=i) for i, s in enumerate(b.sides)}
    b._test_ai = ai
    while not b.finished and not until():
        if b.decision().kind == "reveal":
            m = hidden_due(b.ctx)[0]
            plot, salt = kept[b.state.hidden[m.id]]
            a = game.reveal_of(plot, m.id, salt)
        else:
            a = ai[b.to_act].choose(b)
            if isinstance(a, PlotMission | game.PlotAirStrike):
                salt = fair.new_salt()
                plot, a = a, b.hide_plot(a, salt)
                kept[a.commitment] = (plot, salt)
        b.apply(a, elements(ch, len(b.actions)))
    return kept


def fire_support_to_plot(tmp_path=None, length=2000):
    """modern-fire-support, played by two veterans with fixed chains until side A's first
    plot phase decision; returns (battle, chains, the hidden plots kept so far)."""
    b = Battle(
        game.load_scenario("maps/modern-fire-support.json"),
        3,
        log_path=None if tmp_path is None else tmp_path / "fs.log",
    )
    ch = chains(b, length)
    kept = drive(b, ch, until=lambda: b.decision().kind == "plot" and b.to_act == "A")
    return b, ch, kept


def a_plot(b):
    return next(a for a in b.legal_actions() if isinstance(a, PlotMission))


def test_a_hidden_plot_holds_only_its_firers_and_turn_until_its_owner_reveals_it(tmp_path):
    """002 7.11 with #45's commitments: the mission's sheaf and ammunition are not in either
    engine until the joint artillery phase of its turn waits for the owner's reveal, which
    lands it as an open plot would."""
    b, ch, kept = fire_support_to_plot(tmp_path)
    plot = a_plot(b)
    salt = "ab" * 16
    hidden = b.hide_plot(plot, salt)
    assert hidden.commitment == fair.plot_commitment(plot.to_dict(), salt)
    events = b.apply(hidden, elements(ch, len(b.actions)))
    line = next(e for e in events if e["event"] == "plot")
    assert "sheaf" not in line and "aim" not in line and line["commitment"] == hidden.commitment
    m = b.state.missions[-1]
    assert (m.sheaf, m.ammo, m.firers) == ((), "", plot.firers)

    def ours_first():
        due = hidden_due(b.ctx)
        return bool(due) and due[0].id == m.id

    drive(b, ch, until=ours_first, kept=kept)  # on to the mission's turn, the others revealed
    d = b.decision()
    assert (d.kind, d.side, d.phase, d.options) == ("reveal", "A", "artillery", [])
    with pytest.raises(IllegalAction, match="revealed first"):
        b.apply(Pass("A"), elements(ch, len(b.actions)))
    wrong = game.reveal_of(
        PlotMission("A", plot.firers, ((1.0, 1.0),) * len(plot.firers), "he", plot.lands_turn),
        m.id,
        salt,
    )
    with pytest.raises(IllegalAction, match="does not match the commitment"):
        b.apply(wrong, elements(ch, len(b.actions)))
    events = b.apply(game.reveal_of(plot, m.id, salt), elements(ch, len(b.actions)))
    assert [e["event"] for e in events[:2]] == ["action", "reveal"]
    drive(b, ch, until=lambda: not hidden_due(b.ctx), kept=kept)  # the others revealed too
    landed = [e for e in b.log.events if e["event"] == "artillery" and e["mission"] == m.id]
    assert len(landed) == 1 and landed[0]["turn"] == plot.lands_turn
    rv = events[1]
    assert rv["sheaf"] == [list(p) for p in plot.sheaf] and rv["salt"] == salt
    assert m.id not in b.state.hidden


def test_an_illegal_plot_is_refused_before_it_is_hidden():
    b, _, _ = fire_support_to_plot()
    plot = a_plot(b)
    bad = PlotMission("A", plot.firers, ((-50.0, -50.0),) * len(plot.firers), "he", plot.lands_turn)
    with pytest.raises(IllegalAction):
        b.hide_plot(bad, "00" * 16)


# ------------------------------------------------------------------ verify


@pytest.fixture(scope="module")
def network_log(tmp_path_factory):
    """A whole network battle of modern-fire-support (two veterans, hidden plots revealed by
    their owner), written to a log."""
    path = tmp_path_factory.mktemp("net") / "fs.log"
    b = Battle(game.load_scenario("maps/modern-fire-support.json"), 3, log_path=path)
    drive(b, chains(b, 2000), until=lambda: False)
    return path


def lines_of(path):
    return path.read_text().splitlines()


def changed(tmp_path, path, pick, change):
    """A copy of the log with the first line ``pick`` accepts changed by ``change``; returns
    (copy, its line number from 1)."""
    out = lines_of(path)
    for i, text in enumerate(out):
        d = json.loads(text)
        if pick(d):
            change(d)
            out[i] = json.dumps(d, sort_keys=True, separators=(",", ":"))
            copy = tmp_path / "changed.log"
            copy.write_text("\n".join(out) + "\n")
            return copy, i + 1
    raise AssertionError("no such line")


def test_verify_passes_a_whole_battle_with_hidden_plots(network_log):
    events = [json.loads(t)["event"] for t in lines_of(network_log)]
    assert events.count("reveal") >= 1 and events[-1] == "end"
    assert verify_log(network_log) is None
    assert game.check_log([json.loads(t) for t in lines_of(network_log)]) == []


def _die(d):
    d["combat"]["dice"][0] = d["combat"]["dice"][0] % 6 + 1


def _element(d):
    e = d["elements"]["B"]
    d["elements"]["B"] = ("1" if e[0] == "0" else "0") + e[1:]


def _sheaf(d):
    d["action"]["sheaf"][0][0] += 1.0


@pytest.mark.parametrize(
    "pick, change, says",
    [
        (lambda d: d["event"] == "fire" and "combat" in d, _die, "fire line differs"),
        (lambda d: d["event"] == "action" and d["index"] == 30, _element, "does not hash"),
        (
            lambda d: d["event"] == "action" and d["action"]["kind"] == "reveal_mission",
            _sheaf,
            "does not match the commitment",
        ),
        (lambda d: d["event"] == "reveal", lambda d: d.update(salt="00" * 16), "reveal line"),
    ],
    ids=["a die", "a chain element", "a revealed plot", "a reveal line's salt"],
)
def test_verify_names_the_line_of_one_change(tmp_path, network_log, pick, change, says):
    copy, line = changed(tmp_path, network_log, pick, change)
    problem = verify_log(copy)
    assert problem is not None and problem.startswith(f"{copy}:{line}:"), problem
    assert says in problem


def test_verify_refuses_a_log_that_is_not_a_network_battle(tmp_path):
    path = tmp_path / "hotseat.log"
    b = Battle(game.load_scenario("maps/modern-skirmish.json"), 7, log_path=path)
    b.apply(Pass("A"))
    assert "not the log of a network battle" in verify_log(path)
    assert "no such file" in verify_log(tmp_path / "missing.log").lower() or verify_log(
        tmp_path / "missing.log"
    )


def test_the_cli_verify_exits_0_on_a_good_log_and_1_with_the_line_on_a_changed_one(
    tmp_path, network_log, capsys
):
    from game.cli import main

    assert main(["verify", str(network_log)]) == 0
    copy, line = changed(
        tmp_path, network_log, lambda d: d["event"] == "fire" and "combat" in d, _die
    )
    assert main(["verify", str(copy)]) == 1
    assert f"{copy}:{line}:" in capsys.readouterr().err


# ------------------------------------------------------------------ the protocol's refusals


def two_sides():
    """Host (A) and joiner (B) FairPlay objects with a battle started from their hellos."""
    sc = game.load_scenario("maps/modern-skirmish.json")
    host = FairPlay(Secrets("A", f"{1:064x}", 100))
    join = FairPlay(Secrets("?", f"{2:064x}", 100))
    hh = host.hello(sc, 7, {"host": "A", "join": "B"})
    jh = join.hello()
    host.start(hh, jh, "host")
    join.start(decode(json.dumps(hh)), jh, "join")
    return host, join


def test_an_action_goes_over_as_act_and_answer_and_both_battles_agree():
    host, join = two_sides()
    act = host.propose(Pass("A"))
    assert host.battle.actions == []  # not applied before the answer
    (answer,) = join.receive(act)
    assert answer["type"] == "answer" and len(join.battle.actions) == 1
    assert host.receive(answer) == []
    assert host.battle.state_hash() == join.battle.state_hash() == answer["state_hash"]
    assert [e["event"] for e in host.battle.log.events] == [
        e["event"] for e in join.battle.log.events
    ]


@pytest.mark.parametrize(
    "applied, make, says",
    [
        (True, lambda act: act, "again"),
        (False, lambda act: {**act, "index": 5}, "before action"),
        (True, lambda act: {**act, "index": 1}, "out of turn"),
        (False, lambda act: {**act, "action": {"kind": "warp", "side": "A"}}, "unknown action"),
        (False, lambda act: {**act, "action": {"kind": "pass", "side": "B"}}, "taken for B"),
        (False, lambda act: {**act, "element": "xyz"}, "64 hex digits"),
        (False, lambda act: {**act, "index": True}, "whole number"),
    ],
    ids=["a duplicate", "ahead", "out of turn", "unknown action", "for us", "bad element", "bool"],
)
def test_a_message_that_breaks_the_protocol_is_refused_with_a_reason(applied, make, says):
    host, join = two_sides()
    first = host.propose(Pass("A"))
    if applied:  # A's Ready went over: it is B's turn (the joiner's)
        host.receive(join.receive(first)[0])
    before = join.battle.state_hash()
    with pytest.raises(ProtocolError, match=says):
        join.receive(make(first))
    assert join.battle.state_hash() == before


def test_an_action_the_rules_refuse_is_refused_before_it_is_sent():
    """The acting side asks its own engine first (Battle.refusal): an illegal action never
    goes over, and this side's chain element for it stays unsent."""
    host, join = two_sides()
    with pytest.raises(IllegalAction, match="nope"):
        host.propose(game.Regroup("A", "nope", "1"))  # no such stand
    assert host.sent is None and host.my_turn() and host.secrets.pending is None


def test_a_peer_that_refuses_an_action_the_rules_allow_is_a_fault():
    """Were a side able to refuse a legal action after seeing both elements, it could refuse
    the ones whose dice it dislikes: the actor's engine allowed it, so a refusal is a
    fault, and the receiver never sends its element with a refusal."""
    host, join = two_sides()
    bad = {
        "type": "act",
        "index": 0,
        "action": {"kind": "regroup", "side": "A", "stand": "nope", "group": "1"},
        "element": host.chain.element(0),
    }
    (reply,) = join.receive(bad)
    assert reply["type"] == "refuse" and "nope" in reply["reason"] and "element" not in reply
    act = host.propose(Pass("A"))
    with pytest.raises(Fault, match="refused action 0, which the rules allow"):
        host.receive({"type": "refuse", "index": act["index"], "reason": "I do not like it"})


def test_a_state_that_differs_after_an_action_is_a_fault():
    host, join = two_sides()
    act = host.propose(Pass("A"))
    (answer,) = join.receive(act)
    with pytest.raises(Fault, match="differ after action 0"):
        host.receive({**answer, "state_hash": "0" * 16})


@pytest.mark.parametrize(
    "raw, says",
    [
        (b"\xff\xfe", "not JSON"),
        ("[1, 2]", "not a JSON object"),
        ('{"type": "nuke"}', "unknown type"),
        ("x" * (9 * 1024 * 1024), "over"),
    ],
)
def test_decode_refuses_what_is_not_a_message(raw, says):
    with pytest.raises(ProtocolError, match=says):
        decode(raw)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=70),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["index", "action", "element", "state_hash", "reason", "actions", "resume", "chain_end"]
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=st.sampled_from(["act", "answer", "refuse", "catchup", "bye", "hello"]),
    fields=st.dictionaries(FIELDS, JSON, max_size=4),
    after_first=st.booleans(),
)
def test_nothing_a_peer_sends_crashes_this_side_or_changes_its_battle_unchecked(
    kind, fields, after_first
):
    """Whatever a peer puts in a message, taking it either answers it, refuses it with a
    ProtocolError, or reports the peer left: never another exception, and a message that is
    refused changes nothing."""
    from game.net.fairplay import PeerLeft

    host, join = two_sides()
    first = host.propose(Pass("A"))
    if after_first:
        host.receive(join.receive(first)[0])
    before = (join.battle.state_hash(), len(join.battle.log.events))
    try:
        join.receive({**fields, "type": kind})
    except (ProtocolError, PeerLeft):
        assert (join.battle.state_hash(), len(join.battle.log.events)) == before


def test_replay_check_reads_a_network_battles_log(tmp_path, network_log, capsys):
    """A network battle's log replays like any other: its hidden plot lines (a commitment,
    no aim), its reveal, action and network lines are read and put into words."""
    from game.cli import main

    copy = tmp_path / "network.jsonl"
    copy.write_bytes(network_log.read_bytes())
    assert main(["replay", str(copy), "--check"]) == 0, capsys.readouterr().err
    assert ": ok (modern-full" in capsys.readouterr().out


def test_an_act_lost_in_a_drop_goes_again_unchanged_and_a_crashed_actor_cannot_choose_again(
    tmp_path,
):
    """The act's chain element is out once sent: after a drop (or the actor's crash and
    resume from its secret file) the same act goes again, and the side cannot act anew."""
    host, join = two_sides()
    host.secrets.path = tmp_path / "host.secret"
    act = host.propose(Pass("A"))
    # the line dropped before the joiner had it: both have 0 actions
    assert host.resume_check(0) == [act]
    # the host crashed: a new FairPlay from its secret file and the battle
    again = FairPlay(Secrets.load(tmp_path / "host.secret"), host.battle)
    assert not again.my_turn() and again.sent["index"] == 0
    assert again.resume_check(0) == [act]
    (answer,) = join.receive(act)
    again.receive(answer)
    assert again.battle.state_hash() == join.battle.state_hash()


def test_a_network_ai_keeps_clear_of_its_own_hidden_plots():
    """The engine holds our hidden mission only as a commitment; the AI's session gives it
    the plots it kept, so it still knows where its own HE lands (002 7.11; #45)."""
    from game.ai.scripted import ScriptedAI

    b, ch, kept = fire_support_to_plot()
    plot = a_plot(b)
    salt = "cd" * 16
    hidden = b.hide_plot(plot, salt)
    b.apply(hidden, elements(ch, len(b.actions)))
    ai = ScriptedAI(seed=0)
    assert not any(
        tuple(p) in ai.positions.own_aims(b, "A") for p in plot.sheaf
    )  # only a commitment
    ai.known_plots = {hidden.commitment: {"plot": plot.to_dict(), "salt": salt}}
    aims = ai.positions.own_aims(b, "A")
    assert all(tuple(p) in aims for p in plot.sheaf)


def test_a_catchup_cannot_put_another_action_in_place_of_ours():
    """After a drop the other side holds our chain element for the act we sent: a catchup
    may replay that act, never another one of ours with the same element."""
    host, join = two_sides()
    act = host.propose(Pass("A"))
    forged = {
        "index": 0,
        "action": {"kind": "regroup", "side": "A", "stand": "A1", "group": "9"},
        "elements": {"A": act["element"], "B": join.chain.element(0)},
    }
    with pytest.raises(ProtocolError, match="not the action this side sent"):
        host.receive({"type": "catchup", "actions": [forged]})
    assert host.battle.actions == []
    honest = {**forged, "action": act["action"]}
    host.receive({"type": "catchup", "actions": [honest]})
    assert len(host.battle.actions) == 1 and host.sent is None


def test_a_broken_secret_file_is_refused_with_its_field(tmp_path):
    path = tmp_path / "x.secret"
    path.write_text(
        json.dumps(
            {"side": "A", "secret": f"{1:064x}", "length": 10, "plots": {"ab" * 32: {"plot": 3}}}
        )
    )
    path.chmod(0o600)
    with pytest.raises(ValueError, match="plots.abababababababab: must be a plot"):
        Secrets.load(path)


def test_an_act_sent_while_the_line_was_down_goes_again_after_the_catchup():
    """The joiner applied the host's act and then sent its own while the line was down: on
    reconnection the host is caught up, and the joiner's act goes again after it (it hung
    both sides, each waiting for the other, in a CI run)."""
    host, join = two_sides()
    act = host.propose(Pass("A"))
    join.receive(act)  # the answer is lost
    b_act = join.propose(Pass("B"))  # lost too
    replies = join.resume_check(0)
    assert [r["type"] for r in replies] == ["catchup", "act"] and replies[1] == b_act
    assert host.resume_check(1) == [] and host.owed == 1
    for r in replies:
        for answer in host.receive(r):
            join.receive(answer)
    assert len(host.battle.actions) == len(join.battle.actions) == 2
    assert host.battle.state_hash() == join.battle.state_hash() and join.sent is None


# ------------------------------------------------------------------ every byte, the right line


def _rewritten(tmp_path, path, edit):
    """A copy of the log with its lines (bytes, no line ends) passed through ``edit``."""
    lines = path.read_bytes().split(b"\n")[:-1]
    copy = tmp_path / "tampered.jsonl"
    copy.write_bytes(b"\n".join(edit(lines)) + b"\n")
    return copy


def _field(pick, change):
    """An edit changing a field of the first line ``pick`` accepts."""

    def edit(lines):
        for i, text in enumerate(lines):
            d = json.loads(text)
            if pick(d):
                change(d)
                lines[i] = json.dumps(d, sort_keys=True, separators=(",", ":")).encode()
                return lines
        raise AssertionError("no such line")

    return edit


def _flip(h: str) -> str:
    return ("1" if h[0] == "0" else "0") + h[1:]


def _drop(lines, pick):
    i = next(i for i, t in enumerate(lines) if pick(json.loads(t)))
    return lines[:i] + lines[i + 1 :]


def _is(event, **kw):
    return lambda d: d["event"] == event and all(d.get(k) == v for k, v in kw.items())


TAMPERS = {
    "a byte-order mark": (lambda lines: [b"\xef\xbb\xbf" + lines[0], *lines[1:]], 1, "byte-order"),
    "a chain end": (
        _field(_is("network"), lambda d: d["chains"].update(A=_flip(d["chains"]["A"]))),
        2,
        "chain end for A was changed",
    ),
    "the seed": (_field(_is("network"), lambda d: d.update(seed=99)), 2, "differ in seed"),
    "an action line deleted": (
        lambda lines: _drop(lines, _is("action", index=5)),
        None,
        "action 5's line was taken out",
    ),
    "the end line deleted": (lambda lines: lines[:-1], None, "an end line"),
    "a die": (_field(lambda d: d["event"] == "fire" and "combat" in d, _die), None, "fire line"),
    "an element": (_field(_is("action", index=30), _element), None, "does not hash"),
    "a revealed aim": (
        _field(
            lambda d: d["event"] == "action" and d["action"]["kind"] == "reveal_mission", _sheaf
        ),
        None,
        "commitment",
    ),
    "a salt": (_field(_is("reveal"), lambda d: d.update(salt="00" * 16)), None, "reveal line"),
    "a commitment": (
        _field(_is("plot"), lambda d: d.update(commitment=_flip(d["commitment"]))),
        None,
        "plot line",
    ),
    "a space": (lambda lines: [*lines[:3], lines[3] + b" ", *lines[4:]], 4, "its bytes"),
}


@pytest.mark.parametrize("what", list(TAMPERS))
def test_verify_and_replay_check_refuse_any_change_naming_its_line(
    tmp_path, network_log, what, capsys
):
    """verify names the line changed, whatever was changed, and ``replay FILE --check`` on a
    network battle's log never says "ok" to one whose bytes are not the battle's."""
    from game.cli import main

    edit, line, says = TAMPERS[what]
    copy = _rewritten(tmp_path, network_log, edit)
    problem = verify_log(copy)
    assert problem is not None and says in problem, problem
    if line is not None:
        assert problem.startswith(f"{copy}:{line}:"), problem
    assert main(["replay", str(copy), "--check"]) == 1
    err = capsys.readouterr().err
    assert "hulldown verify" in err and f"{copy}:" in err
