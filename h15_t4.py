import time
from engines.analysis.turn_back import turn_back_air, scenario, advise, Diver, advisor_state
from engines.analysis import Budget
t=time.perf_counter()
print(turn_back_air("deep-sea-adventure","grab-2-then-turn", 9, 1), time.perf_counter()-t)
s=advisor_state("deep-sea-adventure", 2, 10, [Diver(12,(2,3)), Diver(5,(1,),"up"), Diver(0,(),"aboard")])
for e in advise("deep-sea-adventure", s, Budget()): print(e.to_json())
print(time.perf_counter()-t)
