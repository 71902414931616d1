"""Players, tournaments and the pages that show them."""
