// Sortable tables, in the browser and without reloading the page: <table class="sortable">.
//
// Each column header becomes a button (a keyboard reaches it with Tab, Enter or Space sorts);
// clicking it sorts the body by that column, clicking again reverses. The sorted header
// carries aria-sort. The markup the templates render decides the rest:
//   td data-sort="0.4567"     the value sorted by (a number, or text); without it, the text.
//                             A blank value sorts last in either direction.
//   th data-sort-first="ascending"|"descending"
//                             the first click's direction; by default text A to Z, numbers
//                             highest first.
//   th data-sortable="no"     a column that is not sorted (a sparkline).
//   th data-sort-key="taken"  the server's ?sort= name for the column: the order goes into
//                             the address ("taken" highest first, "-taken" lowest first), so
//                             the sorted table can be linked, and the server sorts it so.
//   th aria-sort="..."        the server's own order (the default, and the order without
//                             JavaScript).
//   tr data-sort-group="1"    rows of a higher group stay after the lower ones whatever the
//                             column (the server puts samples too small to trust last).
// Equal values keep the server's order.
"use strict";

(function () {
  const serverOrder = new WeakMap();

  function sortValue(cell) {
    if (!cell) return "";
    return (cell.dataset.sort ?? cell.textContent).trim();
  }

  function isNumber(value) {
    return value !== "" && Number.isFinite(Number(value));
  }

  function sortTable(table, index, header) {
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const values = new Map(rows.map((row) => [row, sortValue(row.cells[index])]));
    const numeric = rows.every((row) => values.get(row) === "" || isNumber(values.get(row)));
    const current = header.getAttribute("aria-sort");
    let direction;
    if (current === "ascending") direction = "descending";
    else if (current === "descending") direction = "ascending";
    else direction = header.dataset.sortFirst || (numeric ? "descending" : "ascending");
    const sign = direction === "ascending" ? 1 : -1;
    const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });
    const group = (row) => Number(row.dataset.sortGroup || 0);
    rows.sort((r1, r2) => {
      const a = values.get(r1);
      const b = values.get(r2);
      let order = group(r1) - group(r2);
      if (!order) order = (a === "") - (b === "");
      if (!order && a !== "" && b !== "") {
        order = sign * (numeric ? Number(a) - Number(b) : collator.compare(a, b));
      }
      return order || serverOrder.get(r1) - serverOrder.get(r2);
    });
    for (const th of table.tHead.rows[0].cells) th.removeAttribute("aria-sort");
    header.setAttribute("aria-sort", direction);
    body.append(...rows);
    if (header.dataset.sortKey) {
      const url = new URL(window.location.href);
      const key = direction === "ascending" ? `-${header.dataset.sortKey}` : header.dataset.sortKey;
      url.searchParams.set("sort", key);
      window.history.replaceState(window.history.state, "", url);
    }
  }

  function makeSortable(table) {
    if (!table.tHead || !table.tBodies.length || table.dataset.sortReady) return;
    table.dataset.sortReady = "true";
    Array.from(table.tBodies[0].rows).forEach((row, index) => serverOrder.set(row, index));
    Array.from(table.tHead.rows[0].cells).forEach((header, index) => {
      if (header.dataset.sortable === "no") return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort-button";
      // A server-side sort link (for a page without JavaScript) gives way to the button.
      const link = header.querySelector("a");
      button.append(...(link || header).childNodes);
      // The arrow (site.css) is drawn, not read: the button's name stays the column's.
      const arrow = document.createElement("span");
      arrow.className = "sort-arrow";
      arrow.setAttribute("aria-hidden", "true");
      button.append(arrow);
      header.replaceChildren(button);
      button.addEventListener("click", () => sortTable(table, index, header));
    });
  }

  function setUp(root) {
    for (const table of root.querySelectorAll("table.sortable")) makeSortable(table);
  }

  document.addEventListener("DOMContentLoaded", () => setUp(document));
  // Tables swapped in later (htmx) are made sortable too.
  document.addEventListener("htmx:afterSettle", (event) => setUp(event.target));
})();
