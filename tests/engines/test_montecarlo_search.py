"""The montecarlo bot's search spends its playouts where the decision is close: one action
clearly ahead is chosen on the first playouts, close ones get more, up to the most an action
may have, and equal ones stop at once. Measured on a one-decision game whose actions win
with known probabilities."""

from engines.analysis.strategy import SearchBudget, paired_margin, search
from engines.core.game import Outcome, State, Strategy


class Coin(State):
    """Seat 0 picks an action; a coin with that action's odds says whether it wins; each
    action's playouts are recorded in `played`."""

    def __init__(self, odds: dict[str, float], played: list[str]) -> None:
        self.odds, self.played = odds, played
        self.action: str | None = None
        self.won: bool | None = None
        self.players = 2

    def current_seat(self):
        return 0 if self.action is None else None

    def is_chance_node(self):
        return self.action is not None and self.won is None

    def chance_outcomes(self):
        p = self.odds[self.action]
        outcomes = [({"type": "coin", "win": True}, p), ({"type": "coin", "win": False}, 1 - p)]
        # Every other action's coin reads the same draw the other way round, so two actions
        # of close odds disagree in most playouts (as two real actions may).
        return outcomes[:: -1 if list(self.odds).index(self.action) % 2 else 1]

    def legal_actions(self):
        return [{"type": name, "seat": 0} for name in self.odds] if self.action is None else []

    def apply_action(self, event):
        if event["type"] == "coin":
            self.won = event["win"]
        else:
            self.action = event["type"]
            self.played.append(self.action)

    def is_terminal(self):
        return self.won is not None

    def outcome(self):
        return Outcome((1, 0), ((0,) if self.won else (1,)), (1, 2))

    def clone(self):
        return Coin(self.odds, self.played)

    def snapshot(self):
        return {}


class Idle(Strategy):
    name = "idle"

    def choose(self, state, legal, rng):
        return legal[0]


class CoinGame:
    playout_pool = ()

    def resample(self, state, seat, rng):
        return state.clone()

    def playout_strategy(self):
        return Idle


def searched(odds: dict[str, float], budget: SearchBudget | None = None):
    played: list[str] = []
    state = Coin(odds, played)
    actions = state.legal_actions()
    choice = search(CoinGame(), state, 0, actions, "coin", budget or SearchBudget())
    return choice["type"], {name: played.count(name) for name in odds}


def test_an_action_clearly_ahead_is_chosen_on_the_first_playouts():
    choice, playouts = searched({"surface": 0.05, "stay": 0.95})
    assert choice == "stay"
    assert playouts == {"surface": 16, "stay": 16}


def test_close_actions_get_more_playouts_up_to_the_most_an_action_may_have():
    _, playouts = searched({"surface": 0.50, "stay": 0.55})
    assert playouts["surface"] == playouts["stay"] == 256


def test_equal_actions_stop_once_their_margin_is_known_within_the_tie():
    choice, playouts = searched({"surface": 1.0, "stay": 1.0})
    assert choice == "surface"  # the first of equals
    # Identical outcomes count as one disagreement in n + 1: 2 x sqrt(1 / 65 / 64) < 0.05.
    assert playouts == {"surface": 64, "stay": 64}


def test_an_action_clearly_behind_drops_out_while_the_close_ones_play_on():
    _, playouts = searched({"a": 0.5, "b": 0.52, "c": 0.0})
    assert playouts["c"] == 16
    assert playouts["a"] > 16 and playouts["b"] > 16


def test_with_more_playouts_the_search_finds_the_better_of_two_close_actions_more_often():
    def right(budget: SearchBudget) -> int:
        hits = 0
        for n in range(40):
            odds = {"worse": 0.4, "better": 0.6} if n % 2 else {"better": 0.6, "worse": 0.4}
            played: list[str] = []
            state = Coin(odds, played)
            choice = search(CoinGame(), state, 0, state.legal_actions(), f"s{n}", budget)
            hits += choice["type"] == "better"
        return hits

    assert right(SearchBudget()) > right(SearchBudget(first=4, most=4))


def test_the_paired_margin_is_the_mean_difference_and_its_standard_error():
    mean, se = paired_margin([1.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0, 0.0])
    assert mean == 0.5
    assert round(se, 4) == round((1 / 3) ** 0.5 / 2, 4)  # differences 1, 0, 0, 1
    assert paired_margin([1.0] * 16, [1.0] * 16) == (0.0, (1 / 17 / 16) ** 0.5)
