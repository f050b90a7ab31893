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
"""

from __future__ import annotations

import anywidget
import traitlets

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
  const follow = () => {
    button.textContent = model.get("label");
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
  model.on("change:query", follow);
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
