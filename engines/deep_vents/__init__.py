"""Deep Vents: the hex-tile ecosystem builder (rulebook deep-vents.txt, RULINGS DV-1..DV-16)."""
