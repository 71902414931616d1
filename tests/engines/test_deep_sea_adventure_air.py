"""DSA-3: breathing, and the air running out during the current player's turn."""

from deep_sea_adventure_support import new_game

from engines.deep_sea_adventure.game import DeepSeaAdventure

GAME = DeepSeaAdventure()
CHIPS = [value for level in GAME.editions()["first"].levels for value in level]
CHIP = (1, 0)


def test_each_diver_breathes_the_chips_it_carries_at_the_start_of_its_turn():
    state = new_game()
    state.carried[1] = [(CHIP,), (CHIP,), ((2, 4), (3, 8))]  # a stack counts once
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})
    state.apply_action({"type": "pass", "seat": 0})
    assert state.seat == 1
    assert state.air == 22


def test_the_diver_who_empties_the_tank_finishes_the_turn_then_the_dive_ends():
    state = new_game()
    state.position = [0, 5]
    state.carried[1] = [(CHIP,), ((2, 4),)]
    state.air = 2
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})  # seat 0 to space 2
    state.apply_action({"type": "pass", "seat": 0})
    assert state.air == 0 and state.last_turn
    state.apply_action({"type": "turn", "seat": 1})  # still declares and swims
    state.apply_action({"type": "roll", "seat": 1, "dice": [2, 3]})  # 4, 3, skips 2, 1
    assert state.position[1] == 1
    state.apply_action({"type": "pass", "seat": 1})
    assert state.dive == 2
    assert state.last_dive["drowned"] == [0, 1]
    assert state.path[-1] == ((1, 0), (2, 4))


def test_reaching_the_submarine_on_the_last_breath_banks_the_treasure():
    state = new_game()
    state.position = [0, 3]
    state.carried[1] = [((2, 4),), ((2, 5),)]
    state.air = 2
    state.apply_action({"type": "roll", "seat": 0, "dice": [1, 1]})
    state.apply_action({"type": "pass", "seat": 0})
    state.apply_action({"type": "turn", "seat": 1})
    state.apply_action({"type": "roll", "seat": 1, "dice": [3, 3]})
    assert state.dive == 2
    assert state.banked[1] == [(2, 4), (2, 5)]
    assert state.last_dive["returned"] == [1]


def test_divers_back_in_the_submarine_take_no_more_turns():
    state = new_game(3)
    state.position = [2, 0, 0]
    state.carried[0] = [(CHIP,)]
    state.apply_action({"type": "turn", "seat": 0})
    state.apply_action({"type": "roll", "seat": 0, "dice": [2, 2]})
    for seat in (1, 2):
        state.apply_action({"type": "roll", "seat": seat, "dice": [1, 1]})
        state.apply_action({"type": "pass", "seat": seat})
    assert state.seat == 1
