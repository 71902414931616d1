// Upload page: poll the status endpoint until every log has its verdict, updating the
// progress bar, the counts and each listed log's row in place.
(function () {
  "use strict";
  const section = document.getElementById("upload-status");
  if (!section || section.dataset.done === "true") return;
  const url = section.dataset.statusUrl;
  const progress = document.getElementById("progress");
  const progressText = document.getElementById("progress-text");

  function render(state) {
    progress.max = state.total;
    progress.value = state.finished;
    progress.textContent = state.percent + "%";
    progressText.textContent = state.finished + " of " + state.total + " logs have a verdict";
    for (const [status, n] of Object.entries(state.counts)) {
      const cell = section.querySelector('[data-count="' + status + '"]');
      if (cell) cell.textContent = n;
    }
    for (const log of state.logs) {
      const row = section.querySelector('tr[data-log="' + log.id + '"]');
      if (!row) continue;
      row.querySelector(".status").textContent = log.status;
      row.querySelector(".error").textContent = log.error;
    }
  }

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then((response) => response.json())
      .then((state) => {
        render(state);
        if (!state.done) setTimeout(poll, 1000);
      })
      .catch(() => setTimeout(poll, 5000));
  }
  setTimeout(poll, 500);
})();
