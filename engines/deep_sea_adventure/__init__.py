"""Deep Sea Adventure and its Boost edition (rulebooks + RULINGS.md DSA-1..8, B-1..4)."""
