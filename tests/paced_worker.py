"""`celery` with every log's replay made `REPLAY_PACE` seconds slower, for the fault tests.

Deep Dive replays so fast that four worker processes verify a batch of 810 logs in a few
tenths of a second: the moment "some verified, most still waiting" that a fault must hit
lasted about 60 ms a group (trajectory measured 2026-12-07), and a poll on a loaded CI
machine missed it (stop 45's CI). Paced, a group of 100 takes at least a second, so that
moment lasts a group's time. Only the pace changes: the product's code, settings and
processes are the real ones.

    python tests/paced_worker.py -A deepsea worker ...   (REPLAY_PACE=0.01 in the environment)
"""

import os
import sys
import time
from pathlib import Path

from celery.signals import worker_process_init


@worker_process_init.connect
def pace_replays(**_: object) -> None:
    """In each pool process, before it takes a task (prefork children inherit the hook)."""
    from games.services import verification

    pace, replay = float(os.environ["REPLAY_PACE"]), verification.replay_raw

    def paced(raw: str, *args: object, **kwargs: object) -> object:
        time.sleep(pace)
        return replay(raw, *args, **kwargs)

    verification.replay_raw = paced


if __name__ == "__main__":
    sys.path[0] = str(Path(__file__).resolve().parent.parent)  # the project, as `-m` would
    from celery.__main__ import main

    sys.exit(main())
