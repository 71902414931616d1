"""System checks of the games app."""

from __future__ import annotations

from typing import Any

from django.core.checks import CheckMessage, Warning, register

from engines import compiled


@register()
def verification_engines(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Warns when verification runs the pure-Python engines for want of a current compiled
    build (missing, stale, for another Python): right, but slower (engines.compiled). Not
    when DEEPSEA_PURE_ENGINES asked for them."""
    selection = compiled.SELECTION
    if selection.compiled or selection.reason.startswith(compiled.PURE_ENGINES_ENV):
        return []
    return [
        Warning(
            f"verification runs the pure-Python engines: {selection.reason}",
            hint="`make install` builds the compiled engines (build/compiled).",
            id="games.W001",
        )
    ]
