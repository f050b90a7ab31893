"""The browser's address bar follows the scenario, and a "Copy link" button copies it.

:class:`UrlBar` is a small anywidget: whenever its ``query`` changes it replaces the page's
address with ``?<query>`` (``history.replaceState``: no reload, no new history entry), sets the
tab's title to ``title``, and its button copies the full address to the clipboard (with a
fallback for browsers that refuse the clipboard API). It renders as the button (class
``wb-copy-link``) and a short confirmation (``wb-copy-done``).

That is for a dashboard page (``follow`` true). In a notebook in JupyterLab the address is
JupyterLab's own and is left alone (``follow`` false); the button copies ``link`` instead (the
notebook's Voilà address with the query) and is hidden when there is none.

The address is replaced just after the page has drawn the change that asked for it, not before.

On the static site the kernel runs in the reader's browser, in a worker that cannot see the
page's address; there (``read_page`` true) the bar hands the address's query, as the page was
opened, to the kernel (``page_query``), and :meth:`UrlBar.for_page` has the page apply it as
Voilà's request would have been: a shared link opens the same scenario there too. Until the
kernel has answered, the address is left as the link gave it.
"""

from __future__ import annotations

from typing import Any, Callable

import anywidget
import traitlets

from .share import in_browser, in_voila

__all__ = ["UrlBar"]

_ESM = r"""
function copyText(text) {
  if (navigator.clipboard && window.isSecureContext !== false) {
    return navigator.clipboard.writeText(text).catch(() => legacyCopy(text));
  }
  return Promise.resolve(legacyCopy(text));
}
function legacyCopy(text) {
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  document.body.appendChild(area);
  area.select();
  try { document.execCommand("copy"); } finally { area.remove(); }
}
function render({ model, el }) {
  const button = document.createElement("button");
  button.className = "wb-copy-link jupyter-button";
  button.type = "button";
  const done = document.createElement("span");
  done.className = "wb-copy-done";
  done.setAttribute("role", "status");
  done.style.marginLeft = "6px";
  const target = () => model.get("follow") ? window.location.href : model.get("link");
  // The address is replaced once the page has drawn the change that asked for it (replaceState
  // takes the browser several milliseconds: the numbers should not wait for it), and only the
  // latest of several changes in a row.
  let waiting = false;
  const replace = () => {
    waiting = false;
    if (model.get("follow")) {
      const query = model.get("query");
      const url = window.location.pathname + (query ? "?" + query : "") + window.location.hash;
      if (url !== window.location.pathname + window.location.search + window.location.hash) {
        window.history.replaceState(window.history.state, "", url);
      }
      if (model.get("title")) document.title = model.get("title");
    }
    button.title = target();
    button.style.display = target() ? "" : "none";
  };
  // The static site: the kernel learns the page's query from here, and the address keeps the
  // link's query until the kernel has applied it (its answer changes "query").
  const opened = model.get("read_page") ? window.location.search.replace(/^\?/, "") : "";
  let held = Boolean(opened);
  if (opened) {
    model.set("page_query", opened);
    model.save_changes();
  }
  const follow = () => {
    button.textContent = model.get("label");
    if (held) return;
    done.textContent = "";
    if (!waiting) {
      waiting = true;
      requestAnimationFrame(() => setTimeout(replace, 0));
    }
  };
  button.addEventListener("click", () => {
    if (waiting) replace();
    const href = target();
    copyText(href).then(() => {
      done.textContent = model.get("copied");
      el.dataset.copied = href;
    });
  });
  model.on("change:query", () => { held = false; follow(); });
  model.on("change:title", follow);
  model.on("change:label", follow);
  model.on("change:link", follow);
  follow();
  el.classList.add("wb-urlbar");
  el.append(button, done);
}
export default { render };
"""


class UrlBar(anywidget.AnyWidget):
    """Keeps the address bar at ``?<query>`` and offers a "Copy link" button (see the module)."""

    _esm = _ESM
    query = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    label = traitlets.Unicode("Copy link").tag(sync=True)
    copied = traitlets.Unicode("Copied").tag(sync=True)
    #: True on a dashboard page (the address follows ``query``); false in a notebook.
    follow = traitlets.Bool(True).tag(sync=True)
    #: What the button copies when ``follow`` is false ("" hides the button).
    link = traitlets.Unicode("").tag(sync=True)
    #: True on the static site: the bar reports the page's query as opened (``page_query``).
    read_page = traitlets.Bool(False).tag(sync=True)
    #: The page's query as the reader opened it (set by the browser when ``read_page``).
    page_query = traitlets.Unicode("").tag(sync=True)

    @classmethod
    def for_page(cls, apply: Callable[[str], None], **kw: Any) -> "UrlBar":
        """The bar of a dashboard page: the address follows the page in Voilà and on the static
        site, and on the static site the page's query, once the browser reports it, is given
        to ``apply`` (the page's ``apply_query``); in a notebook it leaves the address alone."""
        browser = in_browser()
        bar = cls(follow=in_voila() or browser, read_page=browser, **kw)
        if browser:
            bar.observe(lambda change: apply(change.new), names="page_query")
        return bar
