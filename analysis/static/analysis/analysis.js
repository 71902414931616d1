// The analysis section under the replay: the chances chart (a click jumps the replay), the
// move list and the moment's words following the replay, and the analysis board. Data comes from data- attributes
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

  const review = (() => {
    const data = document.getElementById("analysis-review");
    return data ? JSON.parse(data.textContent) : null;
  })();
  // What the analysis says of the moment the replay shows: the move just played (its mark
  // and the better move), or the swing an event was part of. The words are the engine's.
  function momentText(index) {
    if (index < 0) return "";
    const move = review.moves.find((m) => m.index === index);
    if (move) {
      let text = `${move.player}: ${move.played}`;
      // The chances come written (rounded once, on the server, as the move list shows them).
      text += move.mark ? `: ${move.mark}, chances ${move.win}.` : `, chances ${move.win}.`;
      if (move.best) text += ` Better: ${move.best} (${move.best_win}).`;
      return text;
    }
    const swing = review.swings.find((s) => s.causes.some((c) => c.index === index));
    const cause = swing && swing.causes.find((c) => c.index === index);
    if (cause) {
      return `${cause.text}${cause.player ? ` (${cause.player})` : ""}: part of what moved ${swing.player}'s chances from ${swing.before} to ${swing.after}.`;
    }
    return "Not a decision: a roll, a draw or a forced move.";
  }

  // The decision just played at the moment the replay shows: highlighted in the move list
  // (scrolled to within its own box, never the page) and spelled out above the chart.
  function highlight() {
    const index = currentEvent();
    document.querySelectorAll(".move-list li.current").forEach((row) => row.classList.remove("current"));
    const row = document.getElementById(`decision-${index}`);
    const list = document.getElementById("analysis-moves");
    if (row && list) {
      row.classList.add("current");
      list.scrollTop = row.offsetTop - list.clientHeight / 2;
    }
    const moment = document.getElementById("analysis-moment");
    if (moment && review) moment.textContent = momentText(index);
  }

  function followViewer() {
    // The viewer moves with history.replaceState (no hashchange): watch its position label.
    const position = document.getElementById("viewer-position");
    if (position) new MutationObserver(highlight).observe(position, { childList: true, characterData: true, subtree: true });
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
      for (const text of [estimate.text, estimate.win.toFixed(2), estimate.se.toFixed(3), String(estimate.playouts)]) {
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
