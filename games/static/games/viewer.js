// A game page's step-through viewer: the state after each event, by replay on the server.
// Step -1 is the table as set up; step i the state after event i. Linkable as ?event=57
// or #event-57; buttons and the left/right arrow keys (Home/End) move through the game.
"use strict";

(function () {
  const root = document.getElementById("viewer");
  if (!root) return;
  const config = JSON.parse(document.getElementById("viewer-config").textContent);
  const picture = document.getElementById("viewer-picture");
  const position = document.getElementById("viewer-position");
  const label = document.getElementById("viewer-label");
  const slider = document.getElementById("viewer-slider");
  const errorBox = document.getElementById("viewer-error");
  const momentLink = document.getElementById("viewer-moment-link");
  const buttons = {
    first: document.getElementById("viewer-first"),
    prev: document.getElementById("viewer-prev"),
    next: document.getElementById("viewer-next"),
    last: document.getElementById("viewer-last"),
  };

  const cache = new Map();
  let lastIndex = config.events - 1; // lowered when replay stops at an error
  let index = -1;
  // The hash as this script last left it: an #event- hash that differs was set by the reader
  // meanwhile (a link followed), whose hashchange is still to come.
  let ownHash = window.location.hash;

  function asked() {
    const fromQuery = new URLSearchParams(window.location.search).get("event");
    const fromHash = /^#event-(-?\d+)$/.exec(window.location.hash);
    const value = fromHash ? fromHash[1] : fromQuery;
    return value === null || value === undefined ? -1 : Number(value);
  }

  // Answer forms on the page (confirmations) follow the replay: a dispute names the event
  // shown, with no number to type, and every answer brings the reader back to this step.
  function syncForms(wantedHash) {
    // Read after "Dispute the step shown:" and "Step shown:" (confirmations' templates).
    const text = index < 0 ? "none yet, move the replay to the step that is wrong" : label.textContent;
    for (const input of document.querySelectorAll("[data-replay-event]")) input.value = index < 0 ? "" : String(index);
    for (const span of document.querySelectorAll("[data-replay-event-label]")) span.textContent = text;
    for (const button of document.querySelectorAll("[data-needs-event]")) button.disabled = index < 0;
    for (const next of document.querySelectorAll("form[data-keep-replay] input[name=next]")) {
      next.value = window.location.pathname + wantedHash;
    }
  }

  function capitalised(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function clamp(value) {
    return Math.max(-1, Math.min(lastIndex, Number.isFinite(value) ? value : -1));
  }

  async function fetchJson(url) {
    const response = await fetch(url, { credentials: "same-origin" });
    const data = await response.json().catch(() => ({ error: { text: `error ${response.status}` } }));
    if (!response.ok) throw new Error((data.error && data.error.text) || `error ${response.status}`);
    return data;
  }

  function remember(data) {
    for (const step of data.steps) cache.set(step.index, step);
    if (data.error && data.error.index !== null && data.error.index !== undefined) {
      lastIndex = Math.min(lastIndex, data.error.index - 1);
      errorBox.hidden = false;
      // Said before the reader steps there (the page's config), so it names the step.
      const at = data.error.index < 1 ? "the setup" : `step ${data.error.index} of ${config.events}`;
      errorBox.textContent = `The replay stops at ${at}: ${data.error.words || data.error.text}`;
    }
  }

  async function step(at) {
    if (cache.has(at)) return cache.get(at);
    remember(await fetchJson(`${config.url}?event=${at}`));
    return cache.get(at);
  }

  async function show(target) {
    index = clamp(target);
    const wanted = index;
    let shown;
    try {
      shown = await step(wanted);
    } catch (error) {
      errorBox.hidden = false;
      errorBox.textContent = error.message;
      return;
    }
    if (wanted !== index || !shown) return; // a later move overtook this one
    const wantedHash = wanted < 0 ? "" : `#event-${wanted}`;
    // A link followed while this step loaded: writing this step's hash would erase it before
    // its hashchange reads it.
    const now = window.location.hash;
    if (now.startsWith("#event-") && now !== ownHash && now !== wantedHash) return;
    window.DeepseaPictures.render(picture, config.picture, shown.snapshot, {
      players: config.players,
      glossary: config.glossary,
      namesOnly: true,
    });
    // Told as players tell a game (the server's words: "turn 7, Marina: place Yeti Crab"),
    // never by the event's index in the log, which only the #event- links carry.
    position.textContent =
      index < 0 ? `Setup · ${config.events} step${config.events === 1 ? "" : "s"}` : `Step ${index + 1} of ${config.events}`;
    label.textContent = shown.event ? capitalised(shown.words || shown.label) : "The table as set up.";
    slider.value = index;
    buttons.first.disabled = buttons.prev.disabled = index <= -1;
    buttons.next.disabled = buttons.last.disabled = index >= lastIndex;
    syncForms(wantedHash);
    momentLink.href = window.location.pathname + (wantedHash || "#viewer");
    // At the setup, a link to another part of the page (#confirmation) keeps its anchor.
    const foreign = now !== "" && !now.startsWith("#event-");
    const hash = wanted < 0 && foreign ? now : wantedHash;
    if (window.location.search || now !== hash) window.history.replaceState(null, "", window.location.pathname + hash);
    ownHash = wantedHash;
  }

  async function load() {
    if (config.stops) remember({ steps: [], error: config.stops });
    slider.min = -1;
    slider.max = lastIndex;
    if (config.all_at_once) {
      try {
        remember(await fetchJson(config.url));
      } catch (error) {
        errorBox.hidden = false;
        errorBox.textContent = error.message;
        return;
      }
      slider.max = lastIndex;
    }
    await show(asked());
  }

  buttons.first.addEventListener("click", () => show(-1));
  buttons.prev.addEventListener("click", () => show(index - 1));
  buttons.next.addEventListener("click", () => show(index + 1));
  buttons.last.addEventListener("click", () => show(lastIndex));
  slider.addEventListener("input", () => show(Number(slider.value)));
  // A link to another part of the page (#viewer, #confirmation) leaves the replay where it is.
  window.addEventListener("hashchange", () => {
    if (window.location.hash === "" || window.location.hash.startsWith("#event-")) show(asked());
  });
  document.addEventListener("keydown", (event) => {
    const tag = (event.target.tagName || "").toLowerCase();
    if (["input", "select", "textarea"].includes(tag) && event.target !== slider) return;
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: -1, End: lastIndex };
    if (event.key in moves && event.target !== slider) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
  load().then(() => {
    root.dataset.ready = "true";
  });
})();
