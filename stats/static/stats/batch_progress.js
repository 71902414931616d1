// A simulation batch's page: poll its progress until the batch has finished.
(function () {
  "use strict";
  const bar = document.getElementById("batch-progress");
  const status = document.getElementById("batch-status");
  function poll() {
    fetch(bar.dataset.url, { credentials: "same-origin" })
      .then((response) => response.json())
      .then((p) => {
        bar.value = p.percent;
        status.textContent = `${p.finished} of ${p.games} finished (${p.verified} verified, ${p.rejected} rejected); status ${p.status}.`;
        if (p.status === "running" || p.status === "queued") setTimeout(poll, 1000);
      });
  }
  poll();
})();
