// The round timer: counts down from the server's "seconds left" (data-seconds-left), so a
// phone's wrong clock does not matter. Elements swapped in by htmx polling bring a fresh
// figure and are picked up on the next tick.
(() => {
  "use strict";
  function shown(seconds) {
    if (seconds <= 0) return "time is up";
    const minutes = Math.floor(seconds / 60);
    const rest = String(seconds % 60).padStart(2, "0");
    return `${minutes}:${rest}`;
  }
  function tick() {
    for (const el of document.querySelectorAll("[data-seconds-left]")) {
      if (!el.dataset.endsAt) {
        el.dataset.endsAt = String(Date.now() + Number(el.dataset.secondsLeft) * 1000);
      }
      const left = Math.max(0, Math.round((Number(el.dataset.endsAt) - Date.now()) / 1000));
      el.textContent = shown(left);
      el.classList.toggle("over", left <= 0);
    }
  }
  tick();
  setInterval(tick, 1000);
})();
