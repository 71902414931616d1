"""Scoring and the tie-break (RULINGS DV-14)."""

from deep_vents_support import lay_out, new_state, plain_turn


def finished(players=2, first_player=0):
    state = new_state(players=players, first_player=first_player)
    while not state.is_terminal():
        plain_turn(state)
    return state


def test_score_is_supply_half_shells_half_hex_archaea_minus_ten_per_token_dv_14():
    state = finished()
    player = state.players[0]
    player.supply, player.shells, player.tokens = 7, 3, 1
    for tile in player.hexes.values():
        tile.archaea = 0
    lay_out(state, 0, [("porous-rock", (5, 5))])
    player.hexes[(5, 5)].archaea = 5
    assert state.outcome().scores[0] == 7 + 2 + 3 - 10


def test_a_tie_goes_to_the_earliest_player_in_turn_order_dv_14():
    state = finished(players=3, first_player=1)
    for player in state.players:
        player.supply, player.shells, player.tokens = 10, 0, 0
        for tile in player.hexes.values():
            tile.archaea = 0
    outcome = state.outcome()
    assert outcome.scores == (10, 10, 10)
    assert outcome.winners == (1,)
    assert outcome.ranks == (3, 1, 2)


def test_the_result_lists_scores_in_seat_order_and_one_winner():
    state = finished(players=2)
    result = state.outcome().to_result()
    assert result["scores"] == [state.score(0), state.score(1)]
    assert result["winners"] == [max((0, 1), key=lambda s: (state.score(s), -s))]
