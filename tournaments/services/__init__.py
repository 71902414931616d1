"""Tournament services: seating.py, standings.py, results.py, recording.py, merge.py."""
