// The Record page: choose the game, then record it step by step. The log so far lives
// here; after every step it is posted to the server, which replays it with the engine and
// answers with the state picture and the legal choices (games/services/record_steps.py).
// A tournament table fixes the game, players and opening bidder from its seating; its
// deal and every step are checked against the seating (DV-3).
// Nothing recorded is lost: each recording has its own key; after every step it is kept
// in localStorage and sent to the server (games.RecordingDraft), so a reload, a cleared
// browser or another device can resume it. A refused save keeps it, with the reason shown
// beside the save button and in the resume list; it goes only when its game is stored or
// its recorder discards it.
"use strict";

(function () {
  const { el, seatName } = window.DeepseaPictures;
  const root = document.getElementById("record");
  if (!root) return;
  const catalogue = JSON.parse(document.getElementById("record-catalogue").textContent);
  const tables = JSON.parse(document.getElementById("record-tables").textContent);
  const tableSelect = document.getElementById("record-table");
  const resumeBox = document.getElementById("record-resume");
  const resumeList = document.getElementById("record-resume-list");
  const storagePrefix = `deepsea-record:${root.dataset.user}:`;
  const serverDrafts = JSON.parse(document.getElementById("record-drafts").textContent);
  const urls = {
    step: root.dataset.stepUrl,
    deal: root.dataset.dealUrl,
    save: root.dataset.saveUrl,
    drafts: root.dataset.draftsUrl,
  };
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;

  const form = document.getElementById("record-setup");
  const gameSelect = document.getElementById("record-game");
  const rulesetSelect = document.getElementById("record-ruleset");
  const countSelect = document.getElementById("record-count");
  const namesBox = document.getElementById("record-names");
  const drawnBox = document.getElementById("record-drawn");
  const play = document.getElementById("record-play");
  const status = document.getElementById("record-status");
  const banner = document.getElementById("record-banner");
  const bannerHint = document.getElementById("record-banner-hint");
  const errorBox = document.getElementById("record-error");
  const picture = document.getElementById("record-picture");
  const choicesBox = document.getElementById("record-choices");
  const historyList = document.getElementById("record-history");
  const undoButton = document.getElementById("record-undo");
  const saveButton = document.getElementById("record-save");
  const saveRefusal = document.getElementById("record-save-refusal");
  const keptNote = document.getElementById("record-kept");

  let key = null; // this recording's own id: its localStorage key and its draft's key
  let base = null; // {game, ruleset, players, setup, table} chosen on the form
  let steps = []; // [{event, label}] or [{draw, label}], in order; undo pops the last
  let revision = 0; // one up per state kept: the newer of this browser's and the server's copy
  let refused = null; // the last refused save's error, kept with the recording
  let answer = null;

  const gameById = Object.fromEntries(catalogue.map((g) => [g.id, g]));
  const tableById = Object.fromEntries(tables.map((t) => [String(t.id), t]));

  function chosenTable() {
    return tableSelect ? tableById[tableSelect.value] || null : null;
  }

  function currentGame() {
    return gameById[gameSelect.value];
  }

  function fillGameOptions() {
    const game = currentGame();
    rulesetSelect.replaceChildren(
      ...Object.keys(game.rulesets).map((name) =>
        el("option", { value: name, selected: name === game.default_ruleset ? "" : null }, name)),
    );
    const count = Number(countSelect.value) || game.min_players;
    countSelect.replaceChildren();
    for (let n = game.min_players; n <= game.max_players; n += 1) {
      countSelect.append(el("option", { value: n, selected: n === Math.min(Math.max(count, game.min_players), game.max_players) ? "" : null }, n));
    }
    fillNames();
    fillDrawn();
  }

  function fillNames() {
    const kept = [...namesBox.querySelectorAll("input")].map((input) => input.value);
    namesBox.replaceChildren();
    const table = chosenTable();
    for (let seat = 0; seat < Number(countSelect.value); seat += 1) {
      const name = table && table.players[seat] ? table.players[seat].name : kept[seat] || "";
      namesBox.append(
        el("label", {}, `Seat ${seat + 1} `,
          el("input", { type: "text", name: `player-${seat}`, required: "", maxlength: 100, value: name, readonly: table ? "" : null })));
    }
    fillDrawn();
  }

  // A tournament table: the seating decides the game, ruleset, players and opener (DV-3).
  function applyTable() {
    const table = chosenTable();
    if (table) {
      gameSelect.value = table.game;
      fillGameOptions();
      rulesetSelect.value = table.ruleset.name;
      countSelect.value = String(table.players.length);
      fillNames();
    }
    for (const select of [gameSelect, rulesetSelect, countSelect]) select.disabled = Boolean(table);
  }

  // "Enter as drawn": the chance outcomes of the setup, typed in from the table, asked for
  // as the game describes them (its drawn_setup for the ruleset).
  function drawnSetup() {
    return currentGame().drawn_setup[rulesetSelect.value];
  }

  // A seat as players read it: its player's name once typed, else "seat 1" for seat 0.
  function seatOptionText(seat) {
    const input = namesBox.querySelector(`input[name=player-${seat}]`);
    const name = input ? input.value.trim() : "";
    return name || `seat ${seat + 1}`;
  }

  function drawnInput(input) {
    if (input.kind === "seat") {
      const seats = [...Array(Number(countSelect.value)).keys()].map((s) => el("option", { value: s }, seatOptionText(s)));
      // A table's seating may fix this seat: who opens the bidding (DV-3) or plays first (DV-16).
      const seated = chosenTable() ? chosenTable().setup[input.key] : undefined;
      const select = el("select", { id: `record-drawn-${input.key}`, class: "drawn-seat", disabled: seated !== undefined ? "" : null }, ...seats);
      if (seated !== undefined) select.value = String(seated);
      return select;
    }
    return el("input", { type: "text", id: `record-drawn-${input.key}`, size: 60, placeholder: input.placeholder || null });
  }

  function fillDrawn() {
    const drawn = drawnSetup();
    drawnBox.replaceChildren(
      ...drawn.inputs.map((input) => el("label", {}, `${input.label} `, drawnInput(input))),
      el("p", { class: "hint" }, drawn.hint),
    );
  }

  function readDrawn() {
    const drawn = drawnSetup();
    const setup = JSON.parse(JSON.stringify(drawn.start));
    for (const input of drawn.inputs) {
      const value = document.getElementById(`record-drawn-${input.key}`).value;
      setup[input.key] = input.kind === "seat" ? Number(value) : value.split(/[\s,;]+/).filter(Boolean).map(Number);
    }
    return setup;
  }

  // JSON in and out; an unreachable server or an outage (503) is an answer too, with the
  // error in data.error like the site's own refusals.
  async function request(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: body === undefined ? "GET" : "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: "same-origin",
      });
    } catch (_) {
      return { ok: false, status: 0, data: { error: { text: "the server cannot be reached (offline?); nothing was lost, try again" } } };
    }
    let data = null;
    try {
      data = await response.json();
    } catch (_) {
      data = {};
    }
    if (!response.ok && !data.error) {
      data.error = { text: data.detail || `the server answered ${response.status}` };
    }
    return { ok: response.ok, status: response.status, data };
  }

  const post = (url, body) => request(url, body);

  function showError(error) {
    errorBox.hidden = !error;
    errorBox.textContent = error ? error.text || error.message || String(error) : "";
  }

  function currentLog() {
    const setup = JSON.parse(JSON.stringify(base.setup));
    const events = [];
    for (const step of steps) {
      if (step.draw) setup.stack.push(step.draw);
      else events.push(step.event);
    }
    return { game: base.game, ruleset: base.ruleset, players: base.players, setup, events };
  }

  // A table's recording names its table, so the server checks it against the seating.
  function withTable(log) {
    return base.table ? { ...log, table: base.table } : log;
  }

  async function advance() {
    const result = await post(urls.step, withTable(currentLog()));
    if (!result.ok) return result.data.error || { text: `error ${result.status}` };
    answer = result.data;
    render();
    keep();
    return null;
  }

  // --- the recording so far, kept in this browser and on the server -------------------

  function stepsText(count) {
    return `${count} step${count === 1 ? "" : "s"}`;
  }

  // Every recording has a key of its own, made when it starts: a second recording of the
  // same table or game never overwrites the first (which is how a refused one was lost).
  function newKey() {
    const random = window.crypto && crypto.getRandomValues ? [...crypto.getRandomValues(new Uint32Array(2))].map((n) => n.toString(36)).join("") : String(Math.random()).slice(2);
    return `${Date.now().toString(36)}-${random}`.slice(0, 40);
  }

  // Recordings kept before keys existed were stored under "table-N" or the game's id.
  function keyOf(storageKey) {
    return storageKey.slice(storagePrefix.length);
  }

  function keep() {
    const savedAt = new Date().toISOString();
    revision += 1;
    try {
      localStorage.setItem(storagePrefix + key, JSON.stringify({ key, base, steps, refusal: refused, revision, savedAt }));
    } catch (_) {
      // Storage full or disabled: the server's copy still keeps it.
    }
    sendDraft();
  }

  // The server's copy, sent after every step: one request at a time, the newest state last,
  // so a slow answer never lets an older recording overwrite a newer one.
  let sending = null; // the promise of the sending under way
  let sendAgain = false;
  function sendDraft() {
    if (sending) {
      sendAgain = true;
      return sending;
    }
    sending = (async () => {
      do {
        sendAgain = false;
        // The count sent, not the steps by the time the answer comes (a step taken meanwhile
        // is sent next): the note never claims the server keeps a step it has not got yet.
        const sent = steps.length;
        const result = await post(urls.drafts, { key, base, steps, refusal: refused, revision });
        keptNote.textContent = result.ok
          ? `${stepsText(sent)} kept on the server and in this browser.`
          : `${stepsText(sent)} kept in this browser only (${result.data.error.text}); sent again with the next step.`;
      } while (sendAgain);
      sending = null;
    })();
    return sending;
  }

  function forget(recordingKey) {
    try {
      localStorage.removeItem(storagePrefix + recordingKey);
    } catch (_) {
      // nothing was kept
    }
  }

  // The recordings kept in this browser, by key; entries that are not ours are left alone.
  function keptRecordings() {
    const kept = new Map();
    try {
      for (let i = 0; i < localStorage.length; i += 1) {
        const storageKey = localStorage.key(i);
        if (!storageKey.startsWith(storagePrefix)) continue;
        try {
          const value = JSON.parse(localStorage.getItem(storageKey));
          if (value && value.base && Array.isArray(value.steps)) {
            const recordingKey = value.key || keyOf(storageKey);
            kept.set(recordingKey, { ...value, key: recordingKey });
          }
        } catch (_) {
          // not readable as a recording: not ours to delete either
        }
      }
    } catch (_) {
      // storage disabled: the server's list still shows every recording
    }
    return kept;
  }

  // This browser's recordings and the server's, one entry per recording: the newer copy, by
  // revision (the server stamps its copy after this browser kept it, so times mislead).
  function allRecordings() {
    const all = keptRecordings();
    for (const draft of serverDrafts) {
      const local = all.get(draft.key);
      if (local && (local.revision || 0) >= draft.revision) {
        all.set(draft.key, { ...local, onServer: true });
      } else {
        all.set(draft.key, {
          key: draft.key,
          base: { game: draft.game, table: draft.table, tableLabel: draft.table_label, players: draft.players.map((name) => ({ name })) },
          stepCount: draft.step_count,
          refusal: draft.refusal,
          refusedStep: draft.refused_step,
          savedAt: draft.updated_at,
          onServer: true,
          fromServer: true,
        });
      }
    }
    return [...all.values()].sort((a, b) => (Date.parse(b.savedAt) || 0) - (Date.parse(a.savedAt) || 0));
  }

  // The reason in the game's words where the server gave them (who and when, no seat
  // numbers), and the step of the event it names (its index counts events, not draws).
  function refusalText(refusal, recording) {
    if (!refusal) return "";
    const text = refusal.words || refusal.text || refusal.message || "refused";
    if (typeof refusal.index !== "number") return text;
    const step = recording.steps ? recording.steps.filter((s) => !s.draw)[refusal.index] : recording.refusedStep;
    if (!step) return text;
    const who = recording.base.players[step.event.seat]?.name;
    return `${text} (the step it names: ${who ? `${who}: ` : ""}${step.label})`;
  }

  function offerResume() {
    const kept = allRecordings();
    resumeBox.hidden = kept.length === 0;
    resumeList.replaceChildren(...kept.map((recording) => {
      const game = gameById[recording.base.game];
      const seated = tableById[String(recording.base.table)];
      const names = recording.base.players.map((p) => p.name).join(", ");
      const label = seated ? seated.label : recording.base.tableLabel;
      const who = label ? ` at ${label}` : ` (${names})`;
      const when = recording.savedAt ? new Date(recording.savedAt).toLocaleString() : "";
      const count = recording.steps ? recording.steps.length : recording.stepCount;
      const where = recording.onServer ? "" : " (in this browser only)";
      const resume = el("button", { type: "button", class: "resume" }, "Resume");
      const discard = el("button", { type: "button", class: "discard secondary" }, "Discard");
      resume.addEventListener("click", () => resumeRecording(recording));
      discard.addEventListener("click", () => discardRecording(recording, count));
      const item = el("li", { "data-key": recording.key },
        `${game ? game.title : recording.base.game}${who}: ${stepsText(count)}, last kept ${when}${where} `,
        resume, " ", discard);
      if (recording.refusal) {
        item.append(el("p", { class: "alert record-refusal" }, `Save refused: ${refusalText(recording.refusal, recording)}`));
      }
      return item;
    }));
  }

  async function resumeRecording(recording) {
    if (!recording.fromServer) return begin(recording);
    const result = await request(`${urls.drafts}${encodeURIComponent(recording.key)}/`);
    if (!result.ok) return showError(result.data.error);
    return begin(result.data);
  }

  async function discardRecording(recording, count) {
    if (!window.confirm(`Discard this recording of ${stepsText(count)}? It cannot be brought back.`)) return;
    if (recording.onServer) {
      const result = await post(`${urls.drafts}${encodeURIComponent(recording.key)}/discard/`, {});
      if (!result.ok) return showError(result.data.error);
      const index = serverDrafts.findIndex((draft) => draft.key === recording.key);
      if (index >= 0) serverDrafts.splice(index, 1);
    }
    forget(recording.key);
    offerResume();
  }

  function showRefusal() {
    saveRefusal.hidden = !refused;
    saveRefusal.textContent = refused ? `Save refused: ${refusalText(refused, { base, steps })}. The recording is kept; fix the cause and save again.` : "";
  }

  // A new or resumed recording: replay its steps, then show the recording view.
  async function begin(recording) {
    key = recording.key || newKey();
    base = recording.base;
    steps = recording.steps;
    revision = recording.revision || 0;
    refused = recording.refusal || null;
    const error = await advance();
    showError(error);
    if (error) return;
    resumeBox.hidden = true;
    form.hidden = true;
    play.hidden = false;
    showRefusal();
    status.focus({ preventScroll: true });
    bringIntoView();
  }

  // Add or take back a step; the server refusing the new log puts the old one back.
  async function changeSteps(change, undo) {
    const changed = change();
    const error = await advance();
    if (error) undo(changed);
    showError(error);
  }

  function choose(step) {
    return changeSteps(() => steps.push(step), () => steps.pop());
  }

  function seatText(seat, recordingBase = base) {
    return seatName({ players: recordingBase.players.map((p) => p.name) }, seat);
  }

  // The choices the engine ties to something drawn (a hex, a free cell, a row position),
  // keyed as the picture looks them up.
  function mapTargets() {
    const targets = new Map();
    for (const choice of answer.choices || []) {
      const target = choice.target;
      if (!target) continue;
      const key = target.row !== undefined ? `row:${target.row}` : `${target.seat}:${target.at[0]},${target.at[1]}`;
      if (!targets.has(key)) targets.set(key, []);
      targets.get(key).push(choice);
    }
    return targets;
  }

  // A click on the map: one choice is made at once; several (grow or trigger, which hex
  // to take from) are offered as buttons right under the map, the first one focused.
  function onTarget(choices, node, name) {
    if (choices.length === 1) {
      choose(choices[0]);
      return;
    }
    const panel = node.closest(".dv-player, .picture") || picture;
    for (const old of picture.querySelectorAll(".map-menu")) old.remove();
    const buttons = choices.map((choice) => {
      const button = el("button", { type: "button", class: "choice" }, choice.label);
      button.addEventListener("click", () => choose(choice));
      return button;
    });
    const cancel = el("button", { type: "button", class: "choice secondary" }, "Cancel");
    const menu = el("div", { class: "choice-group map-menu", role: "group", "aria-label": `Choices for ${name}` },
      el("span", { class: "map-menu-title" }, `${name}:`), ...buttons, cancel);
    cancel.addEventListener("click", () => {
      menu.remove();
      if (node.isConnected) node.focus();
    });
    if (panel.classList.contains("dv-player")) panel.append(menu);
    else node.after(menu);
    buttons[0].focus();
  }

  function render() {
    const targets = mapTargets();
    const options = {
      players: base.players.map((p) => p.name),
      glossary: currentGameById(base.game).glossary,
      targets,
      onTarget,
    };
    window.DeepseaPictures.render(picture, currentGameById(base.game).picture, answer.snapshot, options);
    if (answer.kind === "draw" && answer.drawn.length) {
      const names = options.glossary.hexes || {};
      picture.prepend(el("p", { class: "facts" }, `Drawn so far: ${answer.drawn.map((h) => names[h] || h).join(", ")}`));
    }
    renderBanner(targets.size > 0);
    renderChoices();
    historyList.replaceChildren(...steps.map((step, i) => el("li", {}, step.draw ? `drawn: ${step.label}` : `${seatText(step.event.seat)}: ${step.label}`)));
    undoButton.disabled = steps.length === 0;
    saveButton.hidden = answer.kind !== "over";
    bringIntoView();
  }

  // The prompt stays at the top of the window (a sticky banner); after each step the part
  // of the map it asks about (the first highlighted hex, free cell or row position), else
  // the choices, is scrolled into view just below it: on a phone they were ~1,900 px apart.
  function bringIntoView() {
    if (play.hidden) return;
    const below = banner.offsetHeight;
    document.documentElement.style.setProperty("--record-banner", `${below}px`);
    const target = picture.querySelector(".dv-target");
    const shown = answer.kind === "over" ? saveButton.parentElement : target || choicesBox;
    const box = shown.getBoundingClientRect();
    if (box.top >= below && box.bottom <= window.innerHeight) return; // already in view
    // A player's whole map when it fits under the prompt, else the target in the middle.
    const panel = target && target.closest(".dv-player");
    if (panel && panel.offsetHeight <= window.innerHeight - below) panel.scrollIntoView({ block: "start" });
    else shown.scrollIntoView({ block: target ? "center" : "nearest" });
  }

  // The banner: who is asked what, in their seat's colour ("Marina to place the Yeti Crab").
  function renderBanner(onTheMap) {
    for (const name of [...banner.classList]) if (name.startsWith("seat-colour-")) banner.classList.remove(name);
    let hint = "";
    if (answer.kind === "over") {
      const o = answer.outcome;
      status.replaceChildren(`The game is over. Scores: ${o.scores.map((s, seat) => `${seatText(seat)} ${s}`).join(", ")}. ` +
        `Winner: ${o.winners.map((seat) => seatText(seat)).join(" and ")}.`);
      hint = "Save the game to have it verified.";
    } else if (answer.kind === "draw") {
      status.replaceChildren(`Which hex was drawn? (${answer.waiting_for})`);
      hint = "Choose the hex turned over at the table.";
    } else {
      const asked = answer.asked || answer.waiting_for || "act";
      const who = answer.seat === null ? "Next" : base.players[answer.seat] ? base.players[answer.seat].name : seatText(answer.seat);
      status.replaceChildren(el("strong", { class: "record-who" }, who), ` to ${asked}`);
      if (answer.seat !== null) banner.classList.add(`seat-colour-${answer.seat}`);
      if (answer.kind === "chance") hint = "Enter what was rolled or opened at the table.";
      else if (onTheMap) hint = "Click a highlighted hex on the map, or use the buttons.";
    }
    bannerHint.textContent = hint;
    bannerHint.hidden = !hint;
  }

  function currentGameById(id) {
    return gameById[id];
  }

  // Choices: buttons; long lists varying in one number become a list box; chance outcomes
  // become dice to type or tap (dice, colour dice) or a typed form (opened shells).
  function renderChoices() {
    choicesBox.replaceChildren();
    for (const diver of answer.stacking || []) choicesBox.append(stackingForm(diver));
    const choices = answer.choices;
    if (answer.kind === "chance" && choices.length && Array.isArray(choices[0].event.dice)) {
      choicesBox.append(window.DeepseaDice.diceForm(choices, choose, showError));
      return;
    }
    if (answer.kind === "chance" && choices.length && typeof choices[0].event.colour === "string") {
      choicesBox.append(window.DeepseaDice.colourDie(choices, choose));
      return;
    }
    if (answer.kind === "chance" && choices.length > 8) {
      choicesBox.append(typedForm(choices));
      return;
    }
    const groups = new Map();
    for (const choice of choices) {
      const key = choice.draw ? "draw" : choice.event.type + ":" + choice.event.seat;
      if (!groups.has(key)) groups.set(key, []);
      groups.get(key).push(choice);
    }
    for (const group of groups.values()) {
      const field = group.length > 8 && group[0].event ? varyingNumber(group) : null;
      if (field) {
        const select = el("select", { "aria-label": group[0].label }, ...group.map((c, i) => el("option", { value: i }, c.label)));
        const button = el("button", { type: "button" }, "Record");
        button.addEventListener("click", () => choose(group[Number(select.value)]));
        choicesBox.append(el("div", { class: "choice-group" }, select, " ", button));
        continue;
      }
      const box = el("div", { class: "choice-group" });
      for (const choice of group) {
        // Choices also made on the map are the keyboard fallback: outlined, less prominent.
        const button = el("button", { type: "button", class: choice.target ? "choice outline" : "choice" }, choice.label);
        button.addEventListener("click", () => choose(choice));
        box.append(button);
      }
      choicesBox.append(box);
    }
  }

  // DSA-5: a drowned diver's items, clicked in the order they go onto the stacks. Optional:
  // recording the next dive's first step instead keeps the carried order.
  function stackingForm(diver) {
    const order = [];
    const chipText = (item) => item.map((chip) => `level ${chip.level}: ${chip.value}`).join(" + ");
    const box = el("div", { class: "choice-group stacking", "aria-label": `Stacking order of ${seatText(diver.seat)}` });
    const picked = el("span", { class: "hint" });
    const buttons = diver.items.map((item, index) => {
      const button = el("button", { type: "button", class: "choice" }, `${index + 1}. ${chipText(item)}`);
      button.addEventListener("click", () => {
        order.push(index);
        button.disabled = true;
        picked.textContent = `order so far: ${order.map((i) => i + 1).join(", ")}`;
        if (order.length === diver.items.length) {
          choose({ event: { type: "stack", seat: diver.seat, order }, label: `stacking order ${order.map((i) => i + 1).join(", ")}` });
        }
      });
      return button;
    });
    box.append(
      el("span", {}, `${seatText(diver.seat)} drowned: click the carried items in stacking order (DSA-5, optional) `),
      ...buttons, picked);
    return box;
  }

  function varyingNumber(group) {
    const fields = Object.keys(group[0].event).filter((k) => k !== "type" && k !== "seat");
    return fields.length === 1 && typeof group[0].event[fields[0]] === "number" ? fields[0] : null;
  }

  function typedForm(choices) {
    const sample = choices[0].event;
    const fields = Object.keys(sample).filter((k) => k !== "type" && k !== "seat");
    const box = el("form", { class: "typed-chance" });
    const inputs = {};
    for (const field of fields) {
      if (Array.isArray(sample[field])) {
        inputs[field] = sample[field].map((_, i) => {
          const faces = [...new Set(choices.map((c) => c.event[field][i]))].sort((a, b) => a - b);
          const select = el("select", { "aria-label": `${field} ${i + 1}` }, ...faces.map((f) => el("option", { value: f }, f)));
          box.append(el("label", {}, `${field} ${i + 1} `, select), " ");
          return select;
        });
      } else {
        const values = choices.map((c) => c.event[field]);
        // Starts on a possible outcome, so only the counts that differ need typing.
        const input = el("input", { type: "number", min: Math.min(...values), max: Math.max(...values), value: sample[field], required: "" });
        box.append(el("label", {}, `${field} `, input), " ");
        inputs[field] = input;
      }
    }
    box.append(el("button", { type: "submit" }, "Record"));
    box.addEventListener("submit", (e) => {
      e.preventDefault();
      const event = { type: sample.type, seat: sample.seat };
      for (const field of fields) {
        event[field] = Array.isArray(inputs[field]) ? inputs[field].map((s) => Number(s.value)) : Number(inputs[field].value);
      }
      const known = choices.find((c) => JSON.stringify(c.event) === JSON.stringify(event));
      choose({ event, label: known ? known.label : JSON.stringify(event) });
    });
    return box;
  }

  async function start(event) {
    event.preventDefault();
    const game = currentGame();
    const players = [...namesBox.querySelectorAll("input")].map((input) => ({ name: input.value.trim() }));
    const ruleset = { name: rulesetSelect.value };
    const mode = form.querySelector("input[name=setup-mode]:checked").value;
    let setup;
    const table = chosenTable();
    if (mode === "deal") {
      // A table's deal keeps the seat its seating puts first (DV-3, DV-16): only chance is drawn.
      const dealt = { game: game.id, ruleset, players };
      const result = await post(urls.deal, table ? { ...dealt, table: table.id } : dealt);
      if (!result.ok) return showError(result.data.error);
      setup = result.data.setup;
    } else {
      setup = readDrawn();
    }
    // The table's label goes with the recording: it names the table in the resume list
    // even once the table is closed and no longer offered.
    const tableFields = table ? { table: table.id, tableLabel: table.label } : { table: null };
    await begin({ base: { game: game.id, ruleset, players, setup, ...tableFields }, steps: [] });
  }

  undoButton.addEventListener("click", () => changeSteps(() => steps.pop(), (last) => steps.push(last)));

  // A refused save keeps the recording, with the reason beside the button (and in the
  // resume list after a reload); only a stored game removes it.
  saveButton.addEventListener("click", async () => {
    saveButton.disabled = true;
    // A draft still being sent would otherwise land after the save and bring it back.
    if (sending) await sending;
    const result = await post(urls.save, { ...withTable(currentLog()), draft: key });
    if (result.ok) {
      forget(key);
      window.location.assign(result.data.url);
      return;
    }
    saveButton.disabled = false;
    refused = result.data.error;
    keep();
    showRefusal();
  });

  if (tableSelect) tableSelect.addEventListener("change", applyTable);
  gameSelect.addEventListener("change", fillGameOptions);
  rulesetSelect.addEventListener("change", fillDrawn);
  countSelect.addEventListener("change", fillNames);
  // The seats offered in "Enter as drawn" read as the names typed for them.
  namesBox.addEventListener("input", () => {
    for (const select of drawnBox.querySelectorAll("select.drawn-seat")) {
      for (const option of select.options) option.textContent = seatOptionText(Number(option.value));
    }
  });
  form.addEventListener("submit", start);
  fillGameOptions();
  // /record/?table=ID (linked from a tournament's page) preselects that table.
  const linkedTable = new URLSearchParams(window.location.search).get("table");
  if (tableSelect && linkedTable in tableById) tableSelect.value = linkedTable;
  applyTable();
  offerResume();
})();
