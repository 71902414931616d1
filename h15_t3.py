import sys; sys.path.insert(0,'tests')
from deep_vents_support import ev, lay_out, new_state
from engines.analysis.evaluator import seat_actions, evaluate_position, Budget
state = new_state(players=2)
lay_out(state, 0, [("giant-squid", (0, -1))])
state.players[0].hexes[(0, -1)].archaea = 3
opponent = state.players[1]
opponent.tokens, opponent.supply = 1, 3
state.players[0].supply = 0
for at, tile in lay_out(state, 1, [("giant-squid", (0, -1)), ("giant-squid", (1, -1)), ("giant-squid", (1, 0)), ("giant-squid", (0, 1))]).items():
    tile.archaea = 10
state.apply_action(ev("take", 0, position=1))
state.apply_action(ev("place", 0, hex=(-1, 0)))
squid = ev("trigger", 0, hex=(0, -1))
while squid not in state.legal_actions():
    state.apply_action(next(a for a in state.legal_actions() if a["type"] == "grow"))
t = state.clone(); t.apply_action(squid)
print(t.phase, t.decider, t.players[1].tokens, t.players[1].supply, t.legal_actions()[:5])
for e in evaluate_position("deep-vents", state, 0, seat_actions(state,0), 2, budget=Budget(0.05,24,64,8)): print(e.to_json())
