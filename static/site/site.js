// Site-wide behaviour, loaded on every page (no inline scripts: the Content-Security-Policy
// allows none): the collapsing navigation and tables that scroll inside their box. Sorting
// tables is sortable.js; charts are /static/charts.js.
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

// A table wider than its box scrolls inside it (site.css); such a box takes the keyboard
// focus, so it can be scrolled without a mouse, and is named after its table.
function markScrollableTables() {
  for (const box of document.querySelectorAll(".table-scroll")) {
    const scrolls = box.scrollWidth > box.clientWidth;
    box.classList.toggle("scrolls", scrolls);
    if (scrolls) {
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

document.addEventListener("DOMContentLoaded", () => {
  setUpNavigation();
  markScrollableTables();
  window.addEventListener("resize", markScrollableTables);
});
