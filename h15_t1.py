import random, time, sys
from engines.registry import get_game
from engines.core.simulate import simulate_game
from engines.analysis import analyse_log, Budget
gid=sys.argv[1]; strat=sys.argv[2]
g=get_game(gid); log=simulate_game(g, g.ruleset({}), [strat]*4, random.Random(3))
t=time.perf_counter(); n=0
res=analyse_log(log, budget=Budget(), seed="1")
dt=time.perf_counter()-t
po=sum(e.playouts for d in res for e in d.estimates)
print(gid, "decisions", len(res), "playouts", po, "time", round(dt,1), "max se", max(e.se for d in res for e in d.estimates), "ms/playout", dt/po*1000)
for d in sorted(res, key=lambda d:-d.cost)[:3]: print(d.index, d.seat, d.phase, d.played, d.best.action, round(d.cost,3), round(d.cost_se,3))
