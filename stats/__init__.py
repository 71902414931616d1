"""Statistics: aggregates kept up to date as games are verified, Plotly dashboards, the lab."""
