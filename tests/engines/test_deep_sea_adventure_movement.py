"""DSA-2 movement: skipping occupied chips, the end of the line, the submarine, the load."""

from deep_sea_adventure_support import new_game

from engines.deep_sea_adventure.state import DeepSeaState

CHIPS = [0, 1, 2, 3, 3, 2, 1, 0, *range(4, 8), *range(7, 3, -1)]
CHIPS += [8, 9, 10, 11, 11, 10, 9, 8, 12, 13, 14, 15, 15, 14, 13, 12]


def roll(state: DeepSeaState, *dice: int) -> None:
    state.apply_action({"type": "roll", "seat": state.seat, "dice": list(dice)})


def test_diving_skips_chips_occupied_by_other_divers_without_counting_them():
    state = new_game(3, chips=CHIPS)
    state.position = [0, 2, 3]
    roll(state, 1, 2)  # 3 moves: space 1, then 2 and 3 are skipped, 4, 5
    assert state.position[0] == 5


def test_returning_skips_chips_occupied_by_other_divers_without_counting_them():
    state = new_game(3, chips=CHIPS)
    state.position = [6, 4, 3]
    state.carried[0] = [((1, 0),)]
    state.apply_action({"type": "turn", "seat": 0})
    roll(state, 2, 2)  # 4 - 1 carried = 3 moves: 5, then 4 and 3 are skipped, 2, 1
    assert state.position[0] == 1
    assert not state.returned[0]


def test_returning_with_moves_to_spare_reaches_the_submarine_and_ends_that_dive():
    state = new_game(2, chips=CHIPS)
    state.position = [2, 1]
    state.carried[0] = [((1, 0),)]
    state.apply_action({"type": "turn", "seat": 0})
    roll(state, 3, 3)
    assert state.position[0] == 0
    assert state.returned[0]
    assert state.seat == 1


def test_overshooting_the_last_chip_stops_on_the_last_chip():
    state = new_game(2, chips=CHIPS)
    state.position = [30, 0]
    roll(state, 3, 3)
    assert state.position[0] == 32


def test_overshooting_stops_on_the_deepest_unoccupied_chip_when_the_last_is_taken():
    state = new_game(2, chips=CHIPS)
    state.position = [29, 32]
    roll(state, 3, 3)  # 30, 31, then 32 is occupied and nothing lies beyond it
    assert state.position[0] == 31


def test_a_diver_with_six_chips_cannot_move_even_on_the_highest_roll():
    state = new_game(2, chips=CHIPS)
    state.position = [10, 0]
    state.carried[0] = [((1, 0),)] * 6
    roll(state, 3, 3)
    assert state.position[0] == 10


def test_a_roll_below_the_chips_carried_leaves_the_diver_in_place():
    state = new_game(2, chips=CHIPS)
    state.position = [10, 0]
    state.carried[0] = [((1, 0),)] * 3
    roll(state, 1, 1)
    assert state.position[0] == 10


def test_a_stack_counts_as_one_chip_for_movement():
    state = new_game(2, chips=CHIPS)
    state.position = [10, 0]
    state.carried[0] = [((4, 12), (4, 13), (3, 9))]
    roll(state, 2, 2)  # 4 - 1
    assert state.position[0] == 13
