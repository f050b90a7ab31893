"""A chart updated in place: a small anywidget holding a plotly figure, redrawn with ``Plotly.react``.

:class:`Chart` is how a dashboard shows a plotly figure. It keeps the figure's JSON in a trait;
when the trait changes, the browser calls ``Plotly.react(div, data, layout, config)`` on the same
plot, which redraws only what changed (no new plot, no image snapshot, no new page elements).
A chart further than half a window from what the page shows (below the fold, in a closed
panel) is not drawn: it keeps its figure's height and is drawn with its latest figure when it
comes near; one near but not shown is drawn once the page has shown the change. A change thus
costs the browser only the charts a reader can see. Until its latest figure is drawn a chart
has the class ``wb-chart-pending``. (A page printed from the browser has only the charts near
where it was scrolled; the HTML report of ``workbook.panels.export`` holds them all.)
The plot's element keeps plotly's class ``js-plotly-plot`` (with its ``data`` and
``_fullLayout``), follows its box's width (responsive), and has the workbook's modebar
(``displaylogo: False``). Setting the same figure again sends nothing.

plotly.js is loaded once per page and shared by every chart: from the workbook's own server
(``server/voila_app.py`` serves plotly's ``plotly.min.js`` compressed and cached, under
``<base url>workbook/static/``), or, where that server is not the one serving the page (a
notebook in JupyterLab, Voilà inside Jupyter Server), from the kernel itself, over the widget's
own messages. On the static site the site serves it beside the pages (:func:`plotly_url`).
Nothing is asked of another host. The server's pages and the site's start plotly's basic bundle
as they open (bar, pie and scatter traces, evaluated in half the time:
``workbook.page.static_address``); a chart whose figure has another trace type (a two-field
sweep's heatmap) loads the whole bundle the first time it is drawn, and draws with it from then.

In a notebook ``outcome_chart(result)`` is a plain ``go.Figure`` and displays as one; the widget
is for dashboards.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

import anywidget
import plotly
import plotly.graph_objects as go
import plotly.io as pio
import traitlets

from .layout import styled_figure
from .share import in_browser
from .static_address import plotly_path

__all__ = ["Chart", "chart", "PLOTLY_CONFIG", "PLOTLY_JS", "plotly_url", "figure_json"]

#: The plot's options: responsive width, no plotly logo in the modebar.
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True}

#: plotly.js as plotly.py ships it (the same version its figures are written for).
PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


_ESM = r"""
const SHARED = "__workbookPlotly";
const EARLY = "__workbookPlotlyEarly";

function run(code) {
  // plotly.min.js sets window.Plotly itself; shadowing module/define keeps it off any loader.
  new Function("module", "exports", "define", code)();
  return window.Plotly;
}

function fromServer(url) {
  return new Promise((resolve, reject) => {
    if (!url) { reject(new Error("no URL")); return; }
    const script = document.createElement("script");
    script.src = url;
    script.async = true;
    script.onload = () => window.Plotly ? resolve(window.Plotly) : reject(new Error("no Plotly"));
    script.onerror = () => { script.remove(); reject(new Error("not served: " + url)); };
    document.head.appendChild(script);
  });
}

function fromKernel(model) {
  return new Promise((resolve, reject) => {
    const listen = (msg, buffers) => {
      if (!msg || msg.type !== "plotly") return;
      model.off("msg:custom", listen);
      try {
        const view = buffers && buffers[0];
        const bytes = view instanceof DataView ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
                                               : new Uint8Array(view);
        resolve(run(new TextDecoder().decode(bytes)));
      } catch (err) { reject(err); }
    };
    model.on("msg:custom", listen);
    model.send({ type: "plotly" });
  });
}

// One plotly.js per page, shared by every chart. A page may have begun loading it before any
// chart asked (the workbook's server's pages and the static site's do, while the kernel starts):
// that promise is window[EARLY]. Where that is plotly's basic bundle, window[TRACES] lists the
// trace types it draws, and a figure with another type (a sweep's heatmap) is drawn by the
// whole bundle (the chart's plotly_url), loaded once, the first time one is drawn.
const TRACES = "__workbookPlotlyEarlyTraces";
const WHOLE = "__workbookPlotlyWhole";

function whole(model) {
  if (!window[WHOLE]) {
    window[WHOLE] = fromServer(model.get("plotly_url")).catch(() => fromKernel(model));
    window[WHOLE].catch(() => { delete window[WHOLE]; });
  }
  return window[WHOLE];
}

function first(model) {
  if (!window[SHARED]) {
    const early = window[EARLY] ? window[EARLY].then((Plotly) => ({ Plotly, traces: window[TRACES] || null }))
      : window.Plotly && window.Plotly.react ? Promise.resolve({ Plotly: window.Plotly, traces: null })
      : Promise.reject(new Error("not loaded early"));
    window[SHARED] = early.catch(() => whole(model).then((Plotly) => ({ Plotly, traces: null })));
    window[SHARED].catch(() => { delete window[SHARED]; });
  }
  return window[SHARED];
}

async function plotlyFor(model, data) {
  const { Plotly, traces } = await first(model);
  if (!traces || data.every((trace) => traces.includes(trace.type || "scatter"))) return Plotly;
  return whole(model);
}

// The outermost ancestor that can scroll vertically: the page's own scrolling box (null: the
// window). Boxes inside it that may scroll (widget boxes) are as tall as what they hold.
function scroller(el) {
  let found = null;
  for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
    const y = getComputedStyle(box).overflowY;
    if (y === "auto" || y === "scroll") found = box;
  }
  return found;
}

function render({ model, el }) {
  el.classList.add("wb-chart");
  el.style.width = "100%";
  const plot = document.createElement("div");
  plot.style.width = "100%";
  el.append(plot);
  let Plotly = null, wanted = true, busy = null, near = false;
  const draw = async () => {
    const text = model.get("figure");
    if (!text) {
      if (Plotly) Plotly.purge(plot);
      plot.replaceChildren(); plot.style.minHeight = ""; return;
    }
    const figure = JSON.parse(text);
    const drawer = await plotlyFor(model, figure.data || []);
    if (Plotly && drawer !== Plotly) Plotly.purge(plot);  // drawn by the basic bundle until now
    Plotly = drawer;
    await Plotly.react(plot, figure.data || [], figure.layout || {}, model.get("config"));
    plot.style.minHeight = "";
  };
  // Pending: the latest figure is not drawn yet (the chart is far from view, or waits for the
  // page). A chart never drawn keeps its figure's height meanwhile, so the page does not jump.
  const pending = (on) => {
    el.classList.toggle("wb-chart-pending", on);
    if (on && !plot._fullLayout) {
      const text = model.get("figure");
      const height = text && (JSON.parse(text).layout || {}).height;
      plot.style.minHeight = height ? height + "px" : "";
    }
  };
  // Changes that arrive while one is drawn are drawn once, the latest.
  const update = () => {
    wanted = true;
    pending(true);  // until the latest figure is drawn
    if (!near || busy) return;
    busy = (async () => {
      // One near the window but not in it waits until the page has shown the change.
      if (!inView()) await new Promise((done) => window.requestIdleCallback
        ? requestIdleCallback(done, { timeout: 250 }) : setTimeout(done, 0));
      while (wanted && near) {
        wanted = false;
        try { await draw(); } catch (err) { console.error("chart not drawn:", err); }
      }
      busy = null;
      pending(wanted);
    })();
  };
  model.on("change:figure", update);
  model.on("change:config", update);
  // "Near" is judged against the box the page scrolls in (Voilà scrolls an inner panel, not the
  // window, and an observer of the window would see that panel clip every chart below it).
  let seen = null, root = null;
  const inView = () => {
    const box = el.getBoundingClientRect(), frame = root ? root.getBoundingClientRect() : { top: 0, bottom: innerHeight };
    return box.bottom > frame.top && box.top < frame.bottom;
  };
  const watch = () => {
    if (seen) return;
    if (!el.isConnected) { requestAnimationFrame(watch); return; }
    root = scroller(el);
    seen = new IntersectionObserver((entries) => {
      near = entries[entries.length - 1].isIntersecting;
      if (near && wanted) update();
    }, { root, rootMargin: "50% 0px" });
    seen.observe(el);
  };
  pending(true);
  watch();
  // A box that changes width (a panel opened, a phone turned, present mode): fit it.
  const fit = new ResizeObserver(() => {
    if (Plotly && plot._fullLayout && plot.clientWidth
        && Math.abs(plot._fullLayout.width - plot.clientWidth) > 1) {
      Plotly.Plots.resize(plot);
    }
  });
  fit.observe(el);
  return () => {
    fit.disconnect();
    if (seen) seen.disconnect();
    seen = {};  // a view removed before it was attached stops waiting to watch
    if (Plotly) Plotly.purge(plot);
  };
}
export default { render };
"""


@cache
def _plotly_bytes() -> bytes:
    return PLOTLY_JS.read_bytes()


def plotly_url() -> str:
    """Where the page's server serves plotly.js (the workbook's server, see the module), with
    plotly's version so that browsers keep it cached. On the static site (the kernel in the
    reader's browser) the address is relative to the page: the site serves the bundle beside
    its pages, so the site works under any path of any host."""
    if in_browser():
        return plotly_path()
    base = os.environ.get("VOILA_BASE_URL") or "/"
    return f"{base.rstrip('/')}/{plotly_path()}"


def figure_json(fig: go.Figure | dict | None) -> str:
    """``fig`` (a figure, or its dict) as plotly's JSON (``""`` for none), what :class:`Chart`
    sends to the browser."""
    return "" if fig is None else pio.to_json(fig, validate=False)


class Chart(anywidget.AnyWidget):
    """One plotly chart of a dashboard, updated in place (see the module): ``show(fig)``."""

    _esm = _ESM
    #: The figure as plotly JSON; "" shows nothing.
    figure = traitlets.Unicode("").tag(sync=True)
    config = traitlets.Dict(PLOTLY_CONFIG).tag(sync=True)
    plotly_url = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any):
        kwargs.setdefault("plotly_url", plotly_url())
        super().__init__(**kwargs)
        self.on_msg(self._asked)

    def show(self, fig: go.Figure | None, present: bool = False) -> None:
        """Show ``fig`` (None: nothing) in the workbook's style, larger when ``present``
        (:func:`workbook.page.layout.styled_figure`); an unchanged figure is not sent again."""
        self.figure = figure_json(None if fig is None else styled_figure(fig, present))

    def _asked(self, _widget: Any, content: Any, _buffers: Any) -> None:
        """The page has no plotly.js from its server: send it over the widget's messages."""
        if isinstance(content, dict) and content.get("type") == "plotly" and PLOTLY_JS.exists():
            self.send({"type": "plotly"}, buffers=[_plotly_bytes()])


def chart(css: str = "", fig: go.Figure | None = None) -> Chart:
    """A :class:`Chart` with the CSS class ``css`` (never shrunk by a flex box around it),
    showing ``fig`` if given."""
    made = Chart(layout={"flex": "0 0 auto", "width": "100%"})
    if css:
        made.add_class(css)
    made.show(fig)
    return made
