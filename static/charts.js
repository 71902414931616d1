// Draws every Plotly figure embedded as data (deepsea/charts.py): pages carry no inline
// script, so the Content-Security-Policy needs no 'unsafe-inline'.
(function () {
  "use strict";
  function draw(root) {
    for (const div of root.querySelectorAll("div[data-plotly-figure]")) {
      if (div.dataset.drawn) continue;
      div.dataset.drawn = "true";
      const figure = JSON.parse(div.dataset.plotlyFigure);
      const config = JSON.parse(div.dataset.plotlyConfig || "{}");
      Plotly.newPlot(div, figure.data || [], figure.layout || {}, config);
    }
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => draw(document));
  } else {
    draw(document);
  }
  // Fragments swapped in later (htmx) bring their own figures.
  document.addEventListener("htmx:afterSettle", (event) => draw(event.target));
})();
