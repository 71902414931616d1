"""The site's pages that span apps: the home page, a player's page, and load_demo. The top
layer: it may import any app; no app imports it."""
