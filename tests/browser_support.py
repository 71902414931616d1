"""What the browser tests share: where screenshots go, the two window sizes, and the check
for sideways scrolling."""

import os
from pathlib import Path

ARTIFACTS = Path(
    os.environ.get("BROWSER_ARTIFACTS", Path(__file__).resolve().parent.parent / "test-artifacts")
)
WIDTHS = {"desktop": (1280, 900), "phone": (390, 844)}
# How far the page scrolls sideways, and the first elements sticking out of the window
# (wide tables and charts scroll inside their own box and do not count).
OVERFLOW = """() => ({
    page: document.documentElement.scrollWidth,
    window: window.innerWidth,
    culprits: Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .filter((e) => !e.closest('.table-scroll, .js-plotly-plot, .skip-link'))
        .slice(0, 5).map((e) => e.tagName + '.' + e.className + '#' + e.id),
})"""
