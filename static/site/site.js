// Site-wide behaviour, loaded on every page (no inline scripts: the Content-Security-Policy
// allows none): the collapsing navigation and sortable tables.
"use strict";

// Navigation: below the breakpoint the menu folds behind a "Menu" button (site.css).
function setUpNavigation() {
  const toggle = document.querySelector(".nav-toggle");
  const menu = document.getElementById("site-menu");
  if (!toggle || !menu) return;
  toggle.addEventListener("click", () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("open", open);
  });
}

// Sortable tables: <table class="sortable">; each header becomes a button, and clicking it
// sorts the body by that column (numbers as numbers, "–" and blanks last), again to reverse.
// A cell may give its sort value in data-sort (e.g. an estimate shown with its interval).
function cellValue(row, index) {
  const cell = row.cells[index];
  if (!cell) return "";
  const raw = (cell.dataset.sort ?? cell.textContent).trim();
  const number = Number.parseFloat(raw.replace(/[,%×]/g, "").replace(/^[^\d+\-−.]+/, "").replace("−", "-"));
  return Number.isFinite(number) && /^[^A-Za-z]*\d/.test(raw) ? number : raw.toLowerCase();
}

function compareValues(a, b) {
  const blank = (v) => v === "" || v === "–" || v === "—";
  if (blank(a) || blank(b)) return blank(a) - blank(b);
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b));
}

function sortTable(table, index, header) {
  const body = table.tBodies[0];
  const descending = header.getAttribute("aria-sort") === "ascending";
  for (const th of table.tHead.rows[0].cells) th.removeAttribute("aria-sort");
  header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  const rows = Array.from(body.rows);
  rows.sort((r1, r2) => {
    const order = compareValues(cellValue(r1, index), cellValue(r2, index));
    return descending ? -order : order;
  });
  body.append(...rows);
}

function setUpSortableTables() {
  for (const table of document.querySelectorAll("table.sortable")) {
    if (!table.tHead || !table.tBodies.length) continue;
    Array.from(table.tHead.rows[0].cells).forEach((header, index) => {
      if (header.dataset.sortable === "no") return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort-button";
      button.title = "Sort by this column";
      button.append(...header.childNodes);
      header.append(button);
      button.addEventListener("click", () => sortTable(table, index, header));
    });
  }
}

// A table wider than its box scrolls inside it (site.css); such a box takes the keyboard
// focus, so it can be scrolled without a mouse, and is named after its table.
function markScrollableTables() {
  for (const box of document.querySelectorAll(".table-scroll")) {
    if (box.scrollWidth > box.clientWidth) {
      const table = box.querySelector("table");
      const caption = table && table.caption ? table.caption.textContent.trim() : "";
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", caption || "Table (scrolls sideways)");
    } else {
      box.removeAttribute("tabindex");
      box.removeAttribute("role");
      box.removeAttribute("aria-label");
    }
  }
}

// Charts: a scatter with a label at every point (the per-hex chart) keeps its labels apart at
// a desktop width only; on a narrow screen the labels go and the names stay on hover.
const NARROW_CHART_PX = 700;

function fitChartLabels() {
  if (!window.Plotly) return;
  const narrow = window.innerWidth < NARROW_CHART_PX;
  for (const div of document.querySelectorAll(".js-plotly-plot")) {
    const labelled = (div.data || [])
      .map((trace, index) => [trace, index])
      .filter(([trace]) => Array.isArray(trace.textposition));
    if (!labelled.length) continue;
    const mode = narrow ? "markers" : "markers+text";
    const indices = labelled.filter(([trace]) => trace.mode !== mode).map(([, index]) => index);
    if (indices.length) window.Plotly.restyle(div, { mode }, indices);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  fitChartLabels();
  window.addEventListener("resize", fitChartLabels);
  setUpNavigation();
  setUpSortableTables();
  markScrollableTables();
  window.addEventListener("resize", markScrollableTables);
});
