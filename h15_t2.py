import random, time, sys
from engines.registry import get_game
from engines.core.simulate import simulate_game
gid=sys.argv[1]; table=sys.argv[2].split(",")
g=get_game(gid)
t=time.perf_counter()
log=simulate_game(g, g.ruleset({}), table, random.Random(5))
print(gid, log["result"], round(time.perf_counter()-t,1),"s")
