// The analysis section: the win-probability chart, the current decision
// highlighted as the replay moves, and the analysis board. Data comes from data- attributes
// and json_script (no inline script: the site runs under a strict Content-Security-Policy).
(function () {
  "use strict";
  function currentEvent() {
    const match = /^#event-(-?\d+)$/.exec(window.location.hash);
    return match ? parseInt(match[1], 10) : -1;
  }

  function drawChart() {
    const data = document.getElementById("analysis-figure");
    const target = document.getElementById("analysis-chart");
    if (!data || !target || !window.deepseaCharts) return;
    const figure = JSON.parse(data.textContent);
    // plotly.js is fetched on demand (static/charts.js); the chart sits under the replay.
    window.deepseaCharts.loadPlotly().then(() => {
      window.Plotly.newPlot(target, figure.data, figure.layout, { displaylogo: false, responsive: true });
      target.on("plotly_click", (event) => {
        if (event.points.length) window.location.hash = `event-${event.points[0].x}`;
      });
    });
  }

  // The decision just played at the moment the replay shows: highlighted in the table and
  // spelled out above it.
  function highlight() {
    const index = currentEvent();
    document.querySelectorAll(".analysis-decisions tr.current").forEach((row) => row.classList.remove("current"));
    const row = document.getElementById(`decision-${index}`);
    const moment = document.getElementById("analysis-moment");
    if (row) row.classList.add("current");
    if (!moment) return;
    if (!row) { moment.textContent = index < 0 ? "" : `Event ${index} was not a decision (a roll, a draw or a forced move).`; return; }
    const cells = [...row.cells].map((cell) => cell.textContent.trim());
    moment.textContent = `Event ${cells[0]}, seat ${cells[1]} (${cells[2]}): played ${cells[3]} (win ${cells[4]}), best found ${cells[5]} (win ${cells[6]}), cost ${cells[7]}.`;
  }

  function followViewer() {
    // The viewer moves with history.replaceState (no hashchange): watch its position label.
    const position = document.getElementById("viewer-position");
    if (position) new MutationObserver(highlight).observe(position, { childList: true, characterData: true, subtree: true });
  }

  function describe(action) {
    const details = Object.entries(action).filter(([key]) => key !== "type" && key !== "seat")
      .map(([key, value]) => `${key} ${JSON.stringify(value)}`).join(", ");
    return details ? `${action.type} (${details})` : action.type;
  }

  function showBoard(progress) {
    const bar = document.getElementById("analysis-board-progress");
    bar.hidden = false; bar.max = progress.total || 1; bar.value = progress.done;
    const table = document.getElementById("analysis-board-table");
    const body = table.querySelector("tbody");
    body.replaceChildren();
    const estimates = [...progress.estimates].sort((a, b) => b.win - a.win);
    for (const estimate of estimates) {
      const row = document.createElement("tr");
      for (const text of [describe(estimate.action), estimate.win.toFixed(2), estimate.se.toFixed(3), String(estimate.playouts)]) {
        const cell = document.createElement("td"); cell.textContent = text; row.append(cell);
      }
      body.append(row);
    }
    table.hidden = estimates.length === 0;
  }

  function setupBoard() {
    const board = document.getElementById("analysis-board");
    const button = document.getElementById("analysis-board-run");
    if (!board || !button) return;
    const error = document.getElementById("analysis-board-error");
    button.addEventListener("click", async () => {
      error.hidden = true;
      const form = new URLSearchParams({ event: String(currentEvent()) });
      const response = await fetch(board.dataset.boardUrl, {
        method: "POST", body: form, headers: { "X-CSRFToken": board.dataset.csrf, Accept: "application/json" },
      });
      const answer = await response.json();
      if (!response.ok) { error.textContent = answer.error ? answer.error.text : response.statusText; error.hidden = false; return; }
      const url = `${board.dataset.boardUrl}${answer.board}.json`;
      showBoard(answer);
      const timer = window.setInterval(async () => {
        const progress = await (await fetch(url)).json();
        showBoard(progress);
        if (progress.status !== "running") {
          window.clearInterval(timer);
          if (progress.error) { error.textContent = progress.error; error.hidden = false; }
        }
      }, 1000);
    });
  }

  // charts.js is deferred: it has run by DOMContentLoaded.
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", drawChart);
  else drawChart();
  highlight();
  window.addEventListener("hashchange", highlight);
  followViewer();
  setupBoard();
})();
