// State pictures of the deep-sea games, drawn from an engine snapshot (no libraries).
// DeepseaPictures.render(container, game, snapshot, options) replaces the container's
// content. options: {players: [names], glossary: {...}, targets, onTarget} (the last two
// for the Record page: the choices the engine ties to a hex, a free cell or a row position,
// drawn highlighted and clickable; see ecosystem()).
"use strict";

(function () {
  const SVG = "http://www.w3.org/2000/svg";
  const TRAIT_COLOURS = {
    heat: "#f4a582",
    rock: "#c2a37a",
    predation: "#b39ddb",
    bioluminescence: "#80deea",
  };

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function svg(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, value);
    }
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function seatName(options, seat) {
    const names = options.players || [];
    // The replay names players only (options.namesOnly); the Record page adds the seat.
    if (options.namesOnly) return names[seat] || `Player ${seat + 1}`;
    // Seats counted from 1, as players count them (a log's seat 0 is "seat 1").
    return names[seat] ? `${names[seat]} (seat ${seat + 1})` : `Seat ${seat + 1}`;
  }

  function sameCoords(a, b) {
    return Array.isArray(a) && Array.isArray(b) && a[0] === b[0] && a[1] === b[1];
  }

  // --- Deep Vents (DV-4: axial coordinates, pointy-top hexes) ------------------------

  const HEX = 30;

  function hexCentre(q, r) {
    return [HEX * Math.sqrt(3) * (q + r / 2), HEX * 1.5 * r];
  }

  function hexPoints(cx, cy, size) {
    const points = [];
    for (let i = 0; i < 6; i += 1) {
      const angle = (Math.PI / 180) * (60 * i - 30);
      points.push(`${(cx + size * Math.cos(angle)).toFixed(1)},${(cy + size * Math.sin(angle)).toFixed(1)}`);
    }
    return points.join(" ");
  }

  function tileColour(tile) {
    if (tile.decimated) return "#b0bec5";
    let best = null;
    for (const [trait, count] of Object.entries(tile.traits || {})) {
      if (count > 0 && (best === null || count > tile.traits[best])) best = trait;
    }
    return TRAIT_COLOURS[best] || "#e0e0e0";
  }

  function shortName(name) {
    const words = name.split(/[\s-]+/);
    const last = words[words.length - 1];
    return last.length > 9 ? last.slice(0, 8) + "." : last;
  }

  // A clickable map target: focusable, named, Enter/Space act like a click.
  function clickable(node, name, act) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", name);
    node.addEventListener("click", () => act(node));
    node.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        act(node);
      }
    });
  }

  // The choices of one map target, named for the target's accessible name: one choice is
  // named by itself, several by the hex and what may be done there.
  function targetName(name, choices) {
    if (choices.length === 1) return choices[0].label;
    return `${name}: ${choices.length} choices`;
  }

  // options.targets: Map "seat:q,r" -> choices about that hex or free cell (the Record
  // page); options.onTarget(choices, node, name) is called when one is clicked.
  function ecosystem(player, snapshot, options, seatIsActive) {
    const names = (options.glossary && options.glossary.hexes) || {};
    const pending = snapshot.pending || {};
    const targets = options.targets || new Map();
    const targetOf = (at) => targets.get(`${player.seat}:${at[0]},${at[1]}`);
    const own = new Set(player.hexes.map((t) => t.at.join(",")));
    const free = [];
    for (const [key, choices] of targets) {
      const [seat, cell] = key.split(":");
      if (Number(seat) === player.seat && !own.has(cell)) free.push({ at: cell.split(",").map(Number), choices });
    }
    const cells = player.hexes.map((t) => t.at).concat(free.map((f) => f.at));
    const xs = [];
    const ys = [];
    for (const [q, r] of cells) {
      const [x, y] = hexCentre(q, r);
      xs.push(x);
      ys.push(y);
    }
    const pad = HEX + 4;
    const minX = Math.min(...xs) - pad;
    const minY = Math.min(...ys) - pad;
    const width = Math.max(...xs) - minX + pad;
    const height = Math.max(...ys) - minY + pad;
    const zoom = options.targets ? 1.6 : 1;
    const anyTarget = free.length > 0 || player.hexes.some((t) => targetOf(t.at));
    const map = svg("svg", {
      class: "dv-map" + (anyTarget ? " dv-map-choosing" : ""),
      viewBox: `${minX.toFixed(1)} ${minY.toFixed(1)} ${width.toFixed(1)} ${height.toFixed(1)}`,
      // Drawn larger where it is clicked (the Record page); max-width keeps it in a phone.
      width: Math.round(width * zoom),
      height: Math.round(height * zoom),
      // Not role=group: Pico stretches groups to the full width.
      role: anyTarget ? null : "img",
      "aria-label": `${seatName(options, player.seat)}: ecosystem of ${player.hexes.length} hexes`,
    });
    for (const tile of player.hexes) {
      const [x, y] = hexCentre(tile.at[0], tile.at[1]);
      const name = names[tile.hex] || tile.hex;
      const classes = ["dv-hex"];
      if (tile.decimated) classes.push("dv-decimated");
      if (seatIsActive && sameCoords(pending.next, tile.at)) classes.push("dv-next");
      if (seatIsActive && sameCoords(pending.repeat, tile.at)) classes.push("dv-repeat");
      if (pending.choices && pending.choices.some((c) => sameCoords(c, tile.at))) {
        classes.push("dv-choice");
      }
      const choices = targetOf(tile.at);
      if (choices) classes.push("dv-target");
      const facts = `${name}: ${tile.archaea} archaea` + (tile.decimated ? ", decimated" : "") +
        (tile.track !== null && tile.track !== undefined ? `, track ${tile.track}` : "");
      const group = svg(
        "g",
        { class: classes.join(" "), "data-at": tile.at.join(",") },
        svg("title", {}, facts),
        svg("polygon", { points: hexPoints(x, y, HEX - 1), fill: tileColour(tile) }),
        svg("text", { x: x, y: y - 6, class: "dv-name" }, shortName(name)),
        svg("text", { x: x, y: y + 14, class: "dv-archaea" }, tile.decimated ? "×" : tile.archaea),
      );
      if (choices) {
        const label = targetName(name, choices);
        clickable(group, label, (node) => options.onTarget(choices, node, name));
      }
      map.append(group);
    }
    for (const { at, choices } of free) {
      const [x, y] = hexCentre(at[0], at[1]);
      const label = targetName("this free space", choices);
      const cell = svg(
        "g",
        { class: "dv-free dv-target", "data-at": at.join(",") },
        svg("title", {}, label),
        svg("polygon", { points: hexPoints(x, y, HEX - 3) }),
        svg("text", { x: x, y: y + 4, class: "dv-name" }, "+"),
      );
      clickable(cell, label, (node) => options.onTarget(choices, node, "this free space"));
      map.append(cell);
    }
    return map;
  }

  // The engine's line names a seat by number and a hex by its coordinates (as its error
  // messages do); players read the name, and the hex's name is enough beside the map.
  function deepVentsWaiting(snapshot, options) {
    const waiting = snapshot.waiting_for || "";
    if (!Number.isInteger(snapshot.current_seat)) return waiting;
    return waiting
      .replace(/^seat \d+ /, `${seatName(options, snapshot.current_seat)} `)
      .replace(/ at \[-?\d+, -?\d+\]/g, "");
  }

  // A diver's mark on the path, keyed to the same mark beside their name in the divers' table
  // (counted from 1, as players count seats).
  function diverMark(diver) {
    return String(diver.seat + 1);
  }

  function deepVents(snapshot, options) {
    const names = (options.glossary && options.glossary.hexes) || {};
    const root = el("div", { class: "picture dv" });
    root.append(el("p", { class: "waiting" }, deepVentsWaiting(snapshot, options)));
    const facts = el("p", { class: "facts" }, `Game turn ${snapshot.turn}`);
    if (snapshot.order && snapshot.order.length) {
      facts.append(` · turn order: ${snapshot.order.map((s) => seatName(options, s)).join(", ")}`);
    }
    root.append(facts);
    if (snapshot.bids && snapshot.bids.length) {
      const bids = el("ol", { class: "dv-bids", "aria-label": "Bids" });
      for (const bid of snapshot.bids) {
        bids.append(el("li", {}, `${seatName(options, bid.seat)}: ${bid.pass ? "pass" : "bids " + bid.amount}`));
      }
      root.append(el("h3", {}, "Bids"), bids);
    }
    const row = el("ol", { class: "dv-row", "aria-label": "Row of hexes on offer" });
    const targets = options.targets || new Map();
    for (const offer of snapshot.row || []) {
      const name = names[offer.hex] || offer.hex;
      const content = [
        el("span", { class: "dv-row-name" }, name),
        el("span", { class: "dv-row-archaea" }, offer.archaea ? `${offer.archaea} archaea` : ""),
      ];
      const choices = targets.get(`row:${offer.position}`);
      if (choices) {
        const button = el("button", { type: "button", class: "dv-target", "aria-label": targetName(name, choices) }, ...content);
        button.addEventListener("click", () => options.onTarget(choices, button, name));
        row.append(el("li", { class: "dv-row-offer" }, button));
      } else {
        row.append(el("li", {}, ...content));
      }
    }
    root.append(el("h3", {}, `Row (${snapshot.stack} hexes left in the stack)`), row);
    if (snapshot.pending && snapshot.pending.hex && snapshot.phase === "place") {
      const taken = names[snapshot.pending.hex] || snapshot.pending.hex;
      root.append(el("p", { class: "dv-taken" }, `To place: ${taken} with ${snapshot.pending.archaea} archaea`));
    }
    const players = el("div", { class: "dv-players" });
    for (const player of snapshot.players) {
      const active = snapshot.active === player.seat;
      const panel = el(
        "section",
        {
          class: `dv-player seat-colour-${player.seat}` + (active ? " active" : "") + (player.eliminated ? " eliminated" : ""),
          "data-seat": player.seat,
        },
        el("h3", {}, seatName(options, player.seat) + (player.eliminated ? " (eliminated)" : "")),
        el(
          "p",
          { class: "facts" },
          `supply ${player.supply} · shells ${player.shells} · shortfall tokens ${player.tokens} · ` +
            `turns ${player.turns} · score ${player.score}`,
        ),
        ecosystem(player, snapshot, options, active),
      );
      players.append(panel);
    }
    root.append(players);
    return root;
  }

  // --- Deep Sea Adventure ----------------------------------------------------------------

  function deepSeaAdventure(snapshot, options) {
    const root = el("div", { class: "picture dsa" });
    const maxAir = (options.glossary && options.glossary.air) || 25;
    const pending = snapshot.pending;
    root.append(
      el(
        "p",
        { class: "waiting" },
        snapshot.over
          ? "The game is over."
          : `Dive ${snapshot.dive}: ${seatName(options, pending.seat)} to ${pending.decision}`,
      ),
    );
    if (snapshot.air !== null && snapshot.air !== undefined) {
      root.append(
        el("p", { class: "facts" }, el("label", {}, `Air ${snapshot.air} / ${maxAir} `,
          el("meter", { min: 0, max: maxAir, value: snapshot.air, class: "dsa-air" }))),
      );
    }
    if (snapshot.turn && snapshot.turn.dice) {
      root.append(el("p", { class: "facts" }, `Rolled: ${snapshot.turn.dice.join(", ")}`));
    }
    const positions = {};
    for (const diver of snapshot.divers) {
      if (diver.position !== undefined) {
        (positions[diver.position] = positions[diver.position] || []).push(diver);
      }
    }
    const path = el("ol", { class: "dsa-path", start: 0, "aria-label": "Path from the submarine" });
    const sub = el("li", { class: "dsa-space dsa-sub" }, el("span", { class: "dsa-chip" }, "Sub"));
    path.append(sub);
    const spaces = [sub];
    for (const space of snapshot.path) {
      const item = el("li", { class: `dsa-space dsa-${space.kind}` });
      if (space.kind === "blank") {
        item.append(el("span", { class: "dsa-chip", title: "blank chip" }, "·"));
      } else {
        const levels = space.chips.map((c) => c.level);
        const label = space.kind === "stack" ? `stack of ${levels.length}` : `level ${levels[0]}`;
        item.append(el("span", { class: `dsa-chip dsa-level-${levels[0]}`, title: label },
          space.kind === "stack" ? `▲${levels.length}` : "●".repeat(levels[0])));
      }
      spaces.push(item);
      path.append(item);
    }
    for (const [position, divers] of Object.entries(positions)) {
      const space = spaces[Number(position)];
      if (!space) continue;
      for (const diver of divers) {
        if (diver.status === "returned" && Number(position) !== 0) continue;
        space.append(el("span", { class: `dsa-diver seat-colour-${diver.seat}`, title: seatName(options, diver.seat) },
          `${diverMark(diver)}${diver.direction === "up" ? "↑" : "↓"}`));
      }
    }
    root.append(path);
    const table = el("table", { class: "dsa-divers" },
      el("thead", {}, el("tr", {}, ...["Diver", "Space", "Status", "Carrying", "Banked points"].map((h) => el("th", {}, h)))));
    const body = el("tbody");
    for (const diver of snapshot.divers) {
      const carried = (diver.carried || []).map((item) => item.map((c) => `L${c.level}`).join("+"));
      body.append(el("tr", {},
        el("td", {}, el("span", { class: `dsa-diver seat-colour-${diver.seat}`, "aria-hidden": "true" }, diverMark(diver)),
          " ", seatName(options, diver.seat)),
        el("td", {}, diver.position === undefined ? "" : diver.position),
        el("td", {}, diver.status || ""),
        el("td", {}, carried.length ? carried.join(", ") : "—"),
        el("td", {}, diver.points)));
    }
    table.append(body);
    root.append(el("div", { class: "table-scroll" }, table)); // scrolls in its own box on a phone
    if (snapshot.last_dive) {
      const last = snapshot.last_dive;
      root.append(el("p", { class: "facts" },
        `Dive ${last.dive}: returned ${last.returned.map((s) => seatName(options, s)).join(", ") || "nobody"}; ` +
        `drowned ${last.drowned.map((s) => seatName(options, s)).join(", ") || "nobody"}`));
    }
    return root;
  }

  // --- Deep Dive -------------------------------------------------------------------------

  function deepDive(snapshot, options) {
    const root = el("div", { class: "picture dd" });
    const pending = snapshot.pending;
    root.append(
      el("p", { class: "waiting" },
        pending ? `Round ${snapshot.round}, pass ${snapshot.pass}: ${seatName(options, pending.seat)} to ${pending.decision}`
          : "The game is over."),
    );
    const sections = el("ol", { class: "dd-sections", "aria-label": "Water sections" });
    for (const section of snapshot.sections) {
      sections.append(el("li", { class: `dd-section dd-${section.colour}` },
        el("strong", {}, section.colour),
        el("span", {}, ` ${section.shells} shell${section.shells === 1 ? "" : "s"}`),
        el("span", { class: "dd-divers" }, section.divers.map((s) => seatName(options, s)).join(", "))));
    }
    root.append(sections);
    const table = el("table", { class: "dd-divers-table" },
      el("thead", {}, el("tr", {}, ...["Diver", "Section", "Unopened shells", "White pearls"].map((h) => el("th", {}, h)))));
    const body = el("tbody");
    for (const diver of snapshot.divers) {
      body.append(el("tr", {},
        el("td", {}, seatName(options, diver.seat)),
        el("td", {}, diver.section || "out of the water"),
        el("td", {}, diver.unopened),
        el("td", {}, snapshot.white_pearls[diver.seat])));
    }
    table.append(body);
    root.append(el("div", { class: "table-scroll" }, table)); // scrolls in its own box on a phone
    const pool = snapshot.pool;
    root.append(el("p", { class: "facts" },
      `Pool: ${pool.shells} shells · unopened anywhere: ${pool.unopened.white} white, ${pool.unopened.black} black, ` +
      `${pool.unopened.empty} empty · black pearls out: ${snapshot.black_pearls} · empty shells removed: ${snapshot.empty_removed}` +
      (snapshot.game_ending ? " · the game is ending" : "")));
    return root;
  }

  function generic(snapshot) {
    return el("pre", { class: "picture" }, JSON.stringify(snapshot, null, 2));
  }

  // Keyed by the kind of picture a game declares (engines' Game.picture), not by game.
  const PICTURES = {
    "vent-row": deepVents,
    "chip-path": deepSeaAdventure,
    "diver-table": deepDive,
  };

  function render(container, kind, snapshot, options) {
    container.replaceChildren();
    if (!snapshot) return;
    container.append((PICTURES[kind] || generic)(snapshot, options || {}));
  }

  window.DeepseaPictures = { render, el, svg, seatName };
})();
