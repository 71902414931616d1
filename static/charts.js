// Draws every Plotly figure embedded as data (common/charts.py): pages carry no inline
// script, so the Content-Security-Policy needs no 'unsafe-inline'.
(function () {
  "use strict";
  if (window.deepseaCharts) return; // included twice (a fragment with its own charts)

  // Point labels. In a chart whose div has data-chart-labels, each point of a trace with a
  // `text` array is labelled with its text, placed here: Plotly does not keep text labels
  // apart. A label goes to the first place around its marker (POSITIONS, in order) where it
  // stays inside the plot and touches no other label, marker, annotation or legend; points
  // are labelled in trace order (the server puts the important ones first), and a point
  // with no free place keeps its name on hover only. The places depend on the pixels, so
  // they are worked out again whenever Plotly redraws (a resize). In a plot narrower than
  // MIN_LABELLED_PLOT_PX every name is on hover only. When the labels are placed for the
  // chart's current width, the div carries data-labels-placed="<width>" (tests wait on it).
  const MIN_LABELLED_PLOT_PX = 300;
  const LABEL_GAP_PX = 2; // kept clear around every label
  const MARKER_GAP_PX = 1;
  const POSITIONS = [
    "top center",
    "middle right",
    "middle left",
    "bottom center",
    "top right",
    "top left",
    "bottom right",
    "bottom left",
  ];
  // Redraws in a row at one size before the labels settle; more means they never will.
  const MAX_RELABELS = 3;
  const labelled = new WeakMap(); // div -> {texts: the labels per trace index, relabels}
  const measure = document.createElement("canvas").getContext("2d");

  function overlaps(a, b) {
    return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  }

  function grown(box, by) {
    return { left: box.left - by, top: box.top - by, right: box.right + by, bottom: box.bottom + by };
  }

  function pick(value, index) {
    return Array.isArray(value) ? value[index] : value;
  }

  // Where Plotly puts a point's text for a textposition (plotly.js textPointPosition): the
  // anchor sits markerRadius / 0.8 + 1 px off the marker's centre, the baseline as below.
  function labelBox(x, y, position, width, font, markerRadius) {
    const [vertical, horizontal] = position.split(" ");
    const offset = markerRadius ? markerRadius / 0.8 + 1 : 0;
    const v = { top: -1, middle: 0, bottom: 1 }[vertical];
    const h = { left: -1, center: 0, right: 1 }[horizontal];
    const baseline = y + 0.75 * font.size + v * offset + ((v - 1) * font.size) / 2;
    const anchor = x + h * offset;
    const left = h === 0 ? anchor - width / 2 : h > 0 ? anchor : anchor - width;
    return {
      left,
      right: left + width,
      top: baseline - font.ascent,
      bottom: baseline + font.descent,
    };
  }

  function fontOf(div, trace) {
    const base = div._fullLayout.font;
    const textfont = trace.textfont || {};
    const size = textfont.size || base.size;
    const family = textfont.family || base.family;
    measure.font = `${size}px ${family}`;
    const metrics = measure.measureText("Hg");
    return {
      size,
      ascent: metrics.fontBoundingBoxAscent ?? size,
      descent: metrics.fontBoundingBoxDescent ?? size * 0.3,
      width: (text) => measure.measureText(text).width,
    };
  }

  function pointPixels(div, trace) {
    const layout = div._fullLayout;
    const xaxis = layout[(trace.xaxis || "x").replace("x", "xaxis")];
    const yaxis = layout[(trace.yaxis || "y").replace("y", "yaxis")];
    return (trace.x || []).map((x, i) => {
      const y = trace.y[i];
      if (x === null || y === null || x === undefined || y === undefined) return null;
      return [xaxis._offset + xaxis.l2p(xaxis.d2l(x)), yaxis._offset + yaxis.l2p(yaxis.d2l(y))];
    });
  }

  // The labels' text and textposition per labelled trace, for the chart as drawn now.
  function layOut(div, texts) {
    const size = div._fullLayout._size;
    const plot = { left: size.l, top: size.t, right: size.l + size.w, bottom: size.t + size.h };
    const origin = div.getBoundingClientRect();
    const taken = Array.from(div.querySelectorAll(".annotation, .legend")).map((element) => {
      const r = element.getBoundingClientRect();
      return {
        left: r.left - origin.left,
        right: r.right - origin.left,
        top: r.top - origin.top,
        bottom: r.bottom - origin.top,
      };
    });
    const pixels = div.data.map((trace) => pointPixels(div, trace));
    div.data.forEach((trace, t) => {
      const marker = trace.marker || {};
      pixels[t].forEach((point, i) => {
        if (!point) return;
        const radius = (pick(marker.size, i) ?? 6) / 2 + MARKER_GAP_PX;
        const [x, y] = point;
        const box = { left: x - radius, right: x + radius, top: y - radius, bottom: y + radius };
        taken.push({ ...box, owner: `${t}:${i}` }); // a label may touch its own marker
      });
    });
    const placed = new Map();
    for (const [t, names] of texts) {
      const trace = div.data[t];
      const font = fontOf(div, trace);
      const marker = trace.marker || {};
      const shown = [];
      const positions = [];
      names.forEach((name, i) => {
        const point = pixels[t][i];
        let chosen = null;
        if (point && name) {
          const width = font.width(name);
          const radius = (pick(marker.size, i) ?? 6) / 2;
          for (const position of POSITIONS) {
            const box = labelBox(point[0], point[1], position, width, font, radius);
            const inside =
              box.left >= plot.left &&
              box.right <= plot.right &&
              box.top >= plot.top &&
              box.bottom <= plot.bottom;
            const padded = grown(box, LABEL_GAP_PX);
            const owner = `${t}:${i}`;
            const free = !taken.some((other) => other.owner !== owner && overlaps(padded, other));
            if (inside && free) {
              chosen = position;
              taken.push(padded);
              break;
            }
          }
        }
        shown.push(chosen ? name : "");
        positions.push(chosen || POSITIONS[0]);
      });
      placed.set(t, { text: shown, textposition: positions });
    }
    return placed;
  }

  function same(a, b) {
    return JSON.stringify(a) === JSON.stringify(b);
  }

  function placeLabels(div) {
    const state = labelled.get(div);
    if (!state || !div._fullLayout || !div._fullLayout._size) return;
    const width = String(div._fullLayout.width);
    const narrow = div._fullLayout._size.w < MIN_LABELLED_PLOT_PX;
    const indices = [];
    const update = { mode: [], text: [], textposition: [] };
    const wanted = narrow ? null : layOut(div, state.texts);
    for (const [t] of state.texts) {
      const trace = div.data[t];
      const mode = narrow ? "markers" : "markers+text";
      const labels = narrow ? { text: trace.text, textposition: trace.textposition } : wanted.get(t);
      if (trace.mode === mode && same(trace.text, labels.text) && same(trace.textposition, labels.textposition)) {
        continue;
      }
      indices.push(t);
      update.mode.push(mode);
      update.text.push(labels.text);
      update.textposition.push(labels.textposition);
    }
    if (!indices.length) {
      state.relabels = 0;
      div.dataset.labelsPlaced = width;
      return;
    }
    if (state.width === width && state.relabels >= MAX_RELABELS) {
      div.dataset.labelsPlaced = width; // what was placed last, at this width
      return;
    }
    state.relabels = state.width === width ? state.relabels + 1 : 1;
    state.width = width;
    delete div.dataset.labelsPlaced;
    // Redraws the traces, which runs this again (plotly_afterplot) and then finds them right.
    window.Plotly.restyle(div, update, indices);
  }

  // Titles. Plotly never wraps a title: on a phone a long chart, x axis or colour-bar title
  // runs off the chart. One that is wider than its room is broken into lines (at spaces)
  // here, and the margin above (chart title) or below (x axis titles) grows to hold them
  // (a colour bar's title sits above its bar, which Plotly makes room for); a wider window
  // gives the titles back their single line. Worked out again on every redraw, as labels;
  // data-titles-fitted="<width>" says they fit the chart's current width.
  const LINE_HEIGHT = 1.3;
  const titles = new WeakMap(); // div -> {texts: original title per key, margins: original}

  function wrapped(text, width, font) {
    measure.font = `${font.size}px ${font.family}`;
    if (measure.measureText(text).width <= width) return text;
    const lines = [];
    let line = "";
    for (const word of text.split(" ")) {
      const longer = line ? `${line} ${word}` : word;
      if (line && measure.measureText(longer).width > width) {
        lines.push(line);
        line = word;
      } else {
        line = longer;
      }
    }
    lines.push(line);
    return lines.join("<br>");
  }

  // The mode bar (Plotly's zoom, pan and picture buttons, shown on hover or a tap, at the
  // chart's top right) and the chart's title (top left) share the top margin where the title
  // ends left of the bar (a desktop). Where it does not (a phone: the bar is some 200 px
  // wide, about the title's width), the title goes below the bar and the margin grows to
  // hold both: the bar covered the title (issue 25).
  const MODEBAR_GAP_PX = 6;
  // A legend at the chart's foot (LEGEND_BELOW: yref "container", y 0, anchored at its
  // bottom) sits below the x axis's tick labels and title: the bottom margin holds both, as
  // drawn (Plotly makes room for the axis or for the legend, never for one below the other,
  // so on a phone, where the legend takes more lines and the dates turn, the legend covered
  // the axis title). The chart grows by what its bottom margin grows: the plot keeps its
  // height.
  const FOOT_GAP_PX = 10;

  function boxIn(div, element) {
    if (!element) return null;
    const origin = div.getBoundingClientRect();
    const r = element.getBoundingClientRect();
    if (!r.width && !r.height) return null;
    return {
      left: r.left - origin.left,
      top: r.top - origin.top,
      right: r.right - origin.left,
      bottom: r.bottom - origin.top,
    };
  }

  // Where the title's lines start and how wide the widest is, in the chart's pixels.
  function titleSpan(layout, fitted, font) {
    measure.font = `${font.size}px ${font.family}`;
    const width = Math.max(...fitted.split("<br>").map((line) => measure.measureText(line).width));
    const title = layout.title;
    const at = (title.xref === "paper" ? layout._size.l + title.x * layout._size.w : title.x * layout.width);
    const anchor = title.xanchor === "auto" ? (title.x < 1 / 3 ? "left" : title.x > 2 / 3 ? "right" : "center") : title.xanchor;
    const left = anchor === "left" ? at : anchor === "right" ? at - width : at - width / 2;
    return { left, right: left + width };
  }

  // The bottom margin a legend at the chart's foot needs below the x axis (0 without one).
  function footNeeded(div, layout) {
    const legend = layout.legend;
    if (!layout.showlegend || !legend || legend.yref !== "container") return 0;
    if (legend.y > 0.01 || legend.yanchor !== "bottom") return 0;
    const box = boxIn(div, div.querySelector(".legend"));
    if (!box) return 0;
    const plotBottom = layout._size.t + layout._size.h;
    let axisBottom = plotBottom;
    for (const element of div.querySelectorAll(".xaxislayer-above text, [class^='g-x'][class$='title']")) {
      const b = boxIn(div, element);
      if (b) axisBottom = Math.max(axisBottom, b.bottom);
    }
    return Math.ceil(axisBottom - plotBottom + FOOT_GAP_PX + (box.bottom - box.top) + 2);
  }

  function fitTitles(div) {
    const state = titles.get(div);
    const layout = div._fullLayout;
    if (!state || !layout || !layout._size) return;
    const update = {};
    let extraBottom = 0;
    let under = null; // where the title starts, below the mode bar (null: beside it)
    const restyles = [];
    for (const [key, text] of state.texts) {
      if (key.startsWith("colorbar:")) {
        // A colour bar across the plot (a heatmap on a phone): its title is centred on the
        // bar, which starts after the y axis's labels, so its room is twice the distance from
        // the bar's centre to the nearer edge of the chart.
        const t = Number(key.slice("colorbar:".length));
        const bar = div._fullData[t] && div._fullData[t].colorbar;
        if (!bar || !bar.title) continue;
        const centre = layout._size.l + (bar.x ?? 0.5) * layout._size.w;
        const room = 2 * Math.min(centre, layout.width - centre) - 20;
        const fitted = wrapped(text, Math.max(room, 80), bar.title.font || layout.font);
        if (bar.title.text !== fitted) restyles.push([t, fitted]);
        continue;
      }
      const title = key === "title" ? layout.title : layout[key].title;
      const font = title.font || layout.font;
      const room = key === "title" ? layout.width - 20 : layout[key]._length + 40;
      const fitted = wrapped(text, Math.max(room, 80), font);
      const lines = fitted.split("<br>").length - 1;
      if (key === "title") {
        const bar = boxIn(div, div.querySelector(".modebar"));
        const span = titleSpan(layout, fitted, font);
        let top = Math.max(state.margins.t, (lines + 1) * font.size * LINE_HEIGHT + 24);
        if (bar && span.right + MODEBAR_GAP_PX > bar.left && span.left < bar.right) {
          // Below the bar: the title's top MODEBAR_GAP_PX under it (placed below, once the
          // chart's height is known).
          // What sits above the plot (a colour bar across its top) stays below the title.
          under = bar.bottom + MODEBAR_GAP_PX;
          const plotTop = layout._size.t;
          let above = 0;
          for (const element of div.querySelectorAll(".colorbar")) {
            const box = boxIn(div, element);
            if (box && box.bottom <= plotTop + 2) above = Math.max(above, plotTop - box.top);
          }
          const titleHeight = (lines + 1) * font.size * LINE_HEIGHT;
          top = Math.max(state.margins.t, Math.ceil(under + titleHeight + 12 + above));
        }
        if (layout.margin.t !== top) update["margin.t"] = top;
      } else {
        extraBottom = Math.max(extraBottom, lines * font.size * LINE_HEIGHT);
      }
      if (title.text !== fitted) update[key === "title" ? "title.text" : `${key}.title.text`] = fitted;
    }
    const bottom = Math.max(state.margins.b + extraBottom, footNeeded(div, layout));
    if (layout.margin.b !== bottom) update["margin.b"] = bottom;
    state.bottom = bottom;
    const height = state.height(update["margin.t"] ?? layout.margin.t);
    if (state.margins.height && layout.height !== height) {
      // Still as wide as the page: a height set by relayout turns autosize off, unless it is
      // turned on in the same update.
      update.height = height;
      update.autosize = true;
    }
    if (layout.title && state.texts.has("title")) {
      // Plotly hangs a title of several lines higher than its anchor: how much higher is
      // read from the title as drawn below the bar, and made up for.
      const box = boxIn(div, div.querySelector(".gtitle"));
      if (under !== null && box && typeof layout.title.y === "number") {
        state.shift = (1 - layout.title.y) * layout.height - box.top;
      }
      const at = under === null ? null : under + state.shift;
      const y = at === null ? "auto" : Math.round((1 - at / height) * 10000) / 10000;
      if (layout.title.y !== y) {
        update["title.y"] = y;
        update["title.yref"] = "container";
        update["title.yanchor"] = y === "auto" ? "auto" : "top";
      }
    }
    if (restyles.length) {
      delete div.dataset.titlesFitted;
      const [t, fitted] = restyles[0]; // the redraw runs this again for the next one
      window.Plotly.restyle(div, { "colorbar.title.text": fitted }, [t]);
    } else if (Object.keys(update).length) {
      delete div.dataset.titlesFitted;
      window.Plotly.relayout(div, update);
    } else {
      div.dataset.titlesFitted = String(layout.width);
    }
  }

  function watchTitles(div) {
    const layout = div._fullLayout;
    const texts = new Map();
    if (layout.title && layout.title.text) texts.set("title", layout.title.text);
    for (const key of Object.keys(layout)) {
      if (/^xaxis\d*$/.test(key) && layout[key].title && layout[key].title.text) {
        texts.set(key, layout[key].title.text);
      }
    }
    (div.data || []).forEach((trace, t) => {
      const title = trace.colorbar && trace.colorbar.title;
      const text = title && (typeof title === "string" ? title : title.text);
      const across = trace.colorbar && trace.colorbar.orientation === "h";
      if (text && across) texts.set(`colorbar:${t}`, text);
    });
    if (!texts.size) return;
    const margins = { t: layout.margin.t, b: layout.margin.b, height: div.layout.height };
    const state = { texts, margins, bottom: layout.margin.b, shift: 0 };
    // The chart's height with a top margin of `top` (and the bottom margin last fitted):
    // the figure's own, grown by what its margins grew. A chart without a height of its own
    // keeps Plotly's (autosize).
    state.height = (top) =>
      margins.height ? margins.height + Math.max(0, top - margins.t) + Math.max(0, state.bottom - margins.b) : layout.height;
    titles.set(div, state);
    div.on("plotly_afterplot", () => fitTitles(div));
    fitTitles(div);
  }

  // plotly.js is big (1.5 MB, the cartesian bundle): it is fetched, and a chart drawn, only
  // when a chart comes near the window (or, for a chart with a picture, when the reader asks
  // to explore it), so a page shows (and answers) at once on a phone. Printing, and anyone
  // calling drawAll(), draws every chart.
  const plotlySource = document.currentScript && document.currentScript.dataset.plotlySrc;
  let plotlyLoaded = null;

  function loadPlotly() {
    if (window.Plotly) return Promise.resolve();
    if (!plotlyLoaded) {
      plotlyLoaded = new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = plotlySource;
        script.onload = resolve;
        script.onerror = () => reject(new Error(`could not load ${plotlySource}`));
        document.head.appendChild(script);
      });
    }
    return plotlyLoaded;
  }

  // A figure in the div's data attribute, or fetched from its data-figure-src (a figure of
  // thousands of points, pictured on the page: common/charts.py).
  function figureOf(div) {
    if (div.dataset.figureSrc === undefined) return Promise.resolve(JSON.parse(div.dataset.plotlyFigure));
    return fetch(div.dataset.figureSrc, { headers: { Accept: "application/json" } }).then((response) => {
      if (!response.ok) throw new Error(`${div.dataset.figureSrc}: ${response.status}`);
      return response.json();
    });
  }

  function drawOne(div) {
    if (div.dataset.drawn) return Promise.resolve();
    div.dataset.drawn = "true";
    return Promise.all([loadPlotly(), figureOf(div)]).then(([, figure]) => {
      const preview = div.querySelector(".chart-preview");
      if (preview) {
        // The picture gives way to the chart at the chart's own height.
        if ((figure.layout || {}).height) div.style.minHeight = `${figure.layout.height}px`;
        preview.remove();
      }
      const config = JSON.parse(div.dataset.plotlyConfig || "{}");
      const data = figure.data || [];
      const texts = new Map();
      if (div.dataset.chartLabels !== undefined) {
        data.forEach((trace, t) => {
          if (!Array.isArray(trace.text)) return;
          texts.set(t, trace.text.slice());
          // Names appear once they have a place (placeLabels).
          trace.mode = "markers";
        });
      }
      return Plotly.newPlot(div, data, figure.layout || {}, config).then(() => {
        watchTitles(div);
        if (texts.size) {
          labelled.set(div, { texts, width: null, relabels: 0 });
          div.on("plotly_afterplot", () => placeLabels(div));
          placeLabels(div);
        }
      });
    }, (error) => {
      // Offline, or the figure gone: the picture stays, and the next explore tries again.
      delete div.dataset.drawn;
      const button = div.querySelector(".chart-explore");
      if (button) button.textContent = "Could not fetch this chart's data: try again";
      console.error(error);
    });
  }

  const CHARTS = "div[data-plotly-figure], div[data-figure-src]";

  const nearWindow =
    "IntersectionObserver" in window
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              if (!entry.isIntersecting) continue;
              nearWindow.unobserve(entry.target);
              drawOne(entry.target);
            }
          },
          { rootMargin: "200px 0px" },
        )
      : null;

  // A chart with a server-drawn picture (deepsea/chart_preview.py) shows it until the reader
  // points at it or presses its Explore button: plotly.js then replaces it.
  function offerExplore(div) {
    const button = div.querySelector(".chart-explore");
    const explore = () => drawOne(div);
    button.hidden = false;
    button.addEventListener("click", explore);
    div.addEventListener("pointerenter", explore, { once: true });
  }

  function draw(root) {
    for (const div of root.querySelectorAll(CHARTS)) {
      if (div.dataset.drawn) continue;
      if (div.querySelector(".chart-preview")) {
        offerExplore(div);
        continue;
      }
      // The chart's place is kept at its height until it is drawn: nothing below it moves,
      // and charts further down stay far from the window.
      const height = (JSON.parse(div.dataset.plotlyFigure).layout || {}).height;
      if (height) div.style.minHeight = `${height}px`;
      if (nearWindow) nearWindow.observe(div);
      else drawOne(div);
    }
  }

  function drawAll() {
    return Promise.all(
      Array.from(document.querySelectorAll(CHARTS), (div) => drawOne(div)),
    );
  }
  // loadPlotly: for a page's own chart drawn by its own script (the analysis chart).
  window.deepseaCharts = { drawAll, loadPlotly };
  window.addEventListener("beforeprint", drawAll);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => draw(document));
  } else {
    draw(document);
  }
  // Fragments swapped in later (htmx) bring their own figures.
  document.addEventListener("htmx:afterSettle", (event) => draw(event.target));
})();
