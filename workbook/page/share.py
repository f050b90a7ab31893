"""A scenario as a URL query, and back.

The encoding is meant to be read and written by people:

- ``?preset=zhanshi-vs-fusilier`` — a named preset of the dashboard's system;
- ``?dodger.ph=12&attackers.0.burst=4`` — fields by dotted path (list items by index), each
  value as shown on the page (``true``/``false`` for flags, the value of a choice, a number
  with a fractional step in its short decimal form: ``dodger.basic_speed=6.25``);
- both: the preset is the base, the fields change it;
- ``lang=ru`` — the page's language (systems with several); ``system=<id>`` is optional and,
  when given, must be the dashboard's system.

Fields not named keep the base's values (the preset, else the system's default scenario). When a
list's items are named, the list is exactly as long as the highest index named plus one; items
not fully named take the base item at that index, else the defaults.

:func:`encode_query` writes the shortest link that opens the scenario: the preset (or the
default scenario) it is closest to, then only the fields that differ from it
(``preset=zhanshi-vs-fusilier&dodger.ph=12``); ``system=<id>`` alone for the default scenario
itself. Links written before, with every field spelled out, keep opening the same scenario.

A link is text, so reading it turns text into numbers and flags (``12``, ``6.25``, ``yes``)
before the scenario's own strict check; a number a little off its step through floating point
(``6.250000000000001``) is taken as the step, as everywhere.

Reading never raises: :func:`decode_query` turns a malformed or hostile query (unknown keys,
values out of range, garbage, repeated keys, thousands of keys) into ``Shared(scenario=None,
notice=...)``, and the dashboard then shows its default scenario with the notice. What the
scenario's own check refused of what the link asked for is kept field by field in
``Shared.problems`` (:class:`LinkProblem`), for :func:`workbook.page.notices.link_notice` to say in a
player's words.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import parse_qsl, quote, urlencode, urlsplit, urlunsplit

from rules_core import ScenarioError, System
from rules_core.scenario import FieldSpec, Part, Scenario, fields_of, parse, shown

__all__ = ["Shared", "LinkProblem", "encode_query", "decode_query", "read_query", "request_query", "preheating",
           "wait_for_request", "page_url", "share_url", "in_voila",
           "in_jupyter", "jupyter_dashboard_url", "MAX_QUERY_LENGTH"]

#: Longer queries are refused whole (a real scenario needs a few hundred characters).
MAX_QUERY_LENGTH = 4000
_MAX_FIELDS = 300
_INT = re.compile(r"[+-]?[0-9]{1,12}")
#: A decimal as a person or a slider writes it; up to 20 places, so that a slider's floating
#: point (6.250000000000001) reaches the scenario, which takes it as its step (6.25).
_DECIMAL = re.compile(r"[+-]?(?:[0-9]{1,12}(?:\.[0-9]{0,20})?|\.[0-9]{1,20})(?:[eE][+-]?[0-9]{1,3})?")
_TRUE, _FALSE = ("true", "1", "yes", "on"), ("false", "0", "no", "off")
_SHOWN = 60  # characters of a refused value quoted back in a notice


@dataclass(frozen=True)
class LinkProblem:
    """One field of the scenario a link spells out that the scenario's check refused: its dotted
    ``field``, the text the link gave for it (``asked``; None when the link did not name it: a
    check across fields can refuse a value the base scenario set), the value the check was
    given (``given``) and what it allows (``allowed``)."""

    field: str
    asked: str | None
    given: Any
    allowed: str


@dataclass(frozen=True)
class Shared:
    """What a query asked for: ``scenario`` (None when the query names none or is refused),
    ``lang`` (None when not named), ``notice`` (why the query was refused, else "") and
    ``problems``: what the scenario's check refused of the scenario the link spells out, field by
    field (checked whenever every key of the link names a field, even when the link is refused
    for another reason too; the notice then names that reason alone)."""

    scenario: Scenario | None = None
    lang: str | None = None
    notice: str = ""
    problems: tuple[LinkProblem, ...] = ()


def _flatten(data: Any, prefix: str = "") -> list[tuple[str, str]]:
    if isinstance(data, dict):
        return [pair for key, value in data.items()
                for pair in _flatten(value, f"{prefix}{key}.")]
    if isinstance(data, list):
        return [pair for i, value in enumerate(data) for pair in _flatten(value, f"{prefix}{i}.")]
    if isinstance(data, bool):
        return [(prefix[:-1], "true" if data else "false")]
    return [(prefix[:-1], str(data))]


def _changes(spec_cls: type[Part], data: dict[str, Any], base: dict[str, Any],
             prefix: str = "") -> list[tuple[str, str]]:
    """The ``(dotted path, value)`` pairs that turn ``base`` into ``data``.

    A list that differs names a field of its last item, so that decoding gives it exactly that
    length (items not named are taken from the base, see the module's docstring)."""
    pairs: list[tuple[str, str]] = []
    for spec in fields_of(spec_cls):
        name, value, was = spec.name, data.get(spec.name), base.get(spec.name)
        if value == was:
            continue
        if spec.kind == "part":
            pairs += _changes(spec.part_cls, value, was, f"{prefix}{name}.")
        elif spec.kind == "parts":
            default = spec.part_cls().to_data()
            for i, item in enumerate(value):
                old = was[i] if i < len(was) else default
                found = _changes(spec.part_cls, item, old, f"{prefix}{name}.{i}.")
                if not found and i == len(value) - 1:  # name the last item: it sets the length
                    found = _flatten({fields_of(spec.part_cls)[0].name:
                                      item[fields_of(spec.part_cls)[0].name]},
                                     f"{prefix}{name}.{i}.")
                pairs += found
        else:
            pairs += _flatten(value, f"{prefix}{name}.")
    return pairs


def _spelled_out(scenario: Scenario) -> list[tuple[str, str]]:
    data = scenario.to_data()
    data.pop("system", None)
    return _flatten(data)


def encode_query(system: System, scenario: Scenario, lang: str | None = None) -> str:
    """The shortest query for ``scenario`` (without ``?``): the nearest preset, or the default
    scenario, and the fields that differ from it (see the module's docstring).

    >>> from rules_core import get_system
    >>> inf = get_system("infinity-n4")
    >>> mine = inf.preset("zhanshi-mine-and-fusilier").scenario
    >>> encode_query(inf, mine)
    'preset=zhanshi-mine-and-fusilier'
    >>> encode_query(inf, mine.replace(dodger=mine.dodger.replace(ph=12)))
    'preset=zhanshi-mine-and-fusilier&dodger.ph=12'
    """
    tail = [("lang", lang)] if lang and lang != system.languages[0] else []
    preset = next((p.name for p in system.presets if p.scenario == scenario), None)
    if preset is not None:
        return urlencode([("preset", preset)] + tail, safe=".")
    data = scenario.to_data()
    data.pop("system", None)
    bases: list[tuple[list[tuple[str, str]], Scenario]] = []
    for preset in system.presets:
        bases.append(([("preset", preset.name)], preset.scenario))
    bases.append(([("system", system.id)], system.default_scenario()))
    candidates = []
    for head, base in bases:
        old = base.to_data()
        old.pop("system", None)
        changes = _changes(system.scenario_cls, data, old)
        if head[0][0] == "system" and changes:
            head = []  # fields alone apply to the default scenario
        candidates.append(head + changes)
    candidates.sort(key=lambda pairs: len(urlencode(pairs, safe=".")))
    for pairs in candidates[:3]:  # the shortest that reads back exactly (it always should)
        query = urlencode(pairs + tail, safe=".")
        if decode_query(system, query).scenario == scenario:
            return query
    return urlencode(_spelled_out(scenario) + tail, safe=".")


def _quote(value: str) -> str:
    return shown(value, _SHOWN)


def _convert(spec: FieldSpec, raw: str) -> Any:
    """The typed value of ``raw`` for a leaf field; ValueError saying what is allowed."""
    text = raw.strip()
    if spec.kind == "int" and _INT.fullmatch(text):
        return int(text)
    if spec.kind == "float" and _DECIMAL.fullmatch(text):
        return Decimal(text)  # exact; the field snaps it to its step or refuses it
    if spec.kind == "flag" and text.lower() in _TRUE + _FALSE:
        return text.lower() in _TRUE
    if spec.kind == "text":
        return raw  # the scenario's own check of the notation follows
    if spec.kind in ("choice", "ruling"):
        for value, _label in spec.choices:
            if text == str(value):
                return value
    raise ValueError(f"{_quote(raw)} is not allowed; allowed: {spec.allowed()}")


def _place(cls: type[Part], steps: list[str], raw: str, tree: dict[Any, Any]) -> None:
    """Put the typed value of dotted ``steps`` into the nested override ``tree``."""
    specs = {s.name: s for s in fields_of(cls)}
    spec = specs.get(steps[0])
    if spec is None:
        raise ValueError(f"no such field {_quote(steps[0])} (known: {', '.join(specs)})")
    rest = steps[1:]
    if spec.kind == "part":
        if not rest:
            raise ValueError(f"{spec.name!r} is a group of fields; name one, e.g. {spec.name}.<field>")
        _place(spec.part_cls, rest, raw, tree.setdefault(spec.name, {}))
    elif spec.kind == "parts":
        if len(rest) < 2 or not re.fullmatch(r"[0-9]{1,3}", rest[0]) or int(rest[0]) >= spec.max_items:
            raise ValueError(f"{spec.name!r} items are named {spec.name}.<0..{spec.max_items - 1}>.<field>")
        item = tree.setdefault(spec.name, {}).setdefault(int(rest[0]), {})
        _place(spec.part_cls, rest[1:], raw, item)
    elif rest:
        raise ValueError(f"{spec.name!r} has no fields inside it")
    else:
        tree[spec.name] = _convert(spec, raw)


def _apply(cls: type[Part], base: dict[str, Any], tree: dict[Any, Any]) -> dict[str, Any]:
    """``base`` data with the overrides of ``tree`` applied (lists resized as the module says)."""
    out = dict(base)
    for spec in fields_of(cls):
        if spec.name not in tree:
            continue
        given = tree[spec.name]
        if spec.kind == "part":
            out[spec.name] = _apply(spec.part_cls, base[spec.name], given)
        elif spec.kind == "parts":
            items = base[spec.name]
            default = spec.part_cls().to_data()
            out[spec.name] = [_apply(spec.part_cls, items[i] if i < len(items) else default,
                                     given.get(i, {})) for i in range(max(given) + 1)]
        else:
            out[spec.name] = given
    return out


def decode_query(system: System, query: str | None, base: Scenario | None = None) -> Shared:
    """Read a query for ``system``; never raises (see the module's docstring).

    >>> from rules_core import get_system
    >>> inf = get_system("infinity-n4")
    >>> decode_query(inf, "dodger.ph=13").scenario.dodger.ph
    13
    >>> decode_query(inf, "dodger.ph=99").notice[:40]
    'This link could not be used, so the defa'
    """
    query = (query or "").lstrip("?")
    if not query.strip():
        return Shared()
    problems: list[str] = []
    pairs: list[tuple[str, str]] = []
    if len(query) > MAX_QUERY_LENGTH:
        problems.append(f"the link is {len(query)} characters long; at most {MAX_QUERY_LENGTH} are read")
    else:
        try:
            pairs = parse_qsl(query, keep_blank_values=True, errors="replace",
                              max_num_fields=_MAX_FIELDS)
        except ValueError:
            problems.append(f"the link names more than {_MAX_FIELDS} fields")
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            problems.append(f"{_quote(key)} is given more than once")
        seen.add(key)
    values = dict(pairs)
    lang = values.pop("lang", None)
    if lang is not None and lang not in system.languages:
        problems.append(f"lang={_quote(lang)} is not allowed; allowed: {', '.join(system.languages)}")
    other = values.pop("system", None)
    if other is not None and other != system.id:
        problems.append(f"the link is for system {_quote(other)}, this dashboard shows {system.id!r}")
    start = base if base is not None else system.default_scenario()
    preset = values.pop("preset", None)
    if preset is not None:
        names = [p.name for p in system.presets]
        if preset in names:
            start = system.preset(preset).scenario
        else:
            problems.append(f"preset={_quote(preset)} is not allowed; allowed: {', '.join(names) or 'none'}")
    tree: dict[Any, Any] = {}
    placed = True
    for key, raw in values.items():
        try:
            _place(system.scenario_cls, key.split("."), raw, tree)
        except ValueError as err:
            problems.append(f"{_quote(key)}: {err}")
            placed = False
    scenario, refused = None, ()
    if placed and (tree or not problems):  # the base alone is a valid scenario already
        try:
            scenario = parse(system.scenario_cls, _apply(system.scenario_cls, start.to_data(), tree))
        except ScenarioError as err:
            refused = tuple(LinkProblem(p.field, values.get(p.field), p.given, p.allowed) for p in err.problems)
            if not problems:  # said only when nothing before it refused the link
                problems.append(str(err))
    if problems:
        return Shared(notice="This link could not be used, so the default scenario is shown: "
                             + "; ".join(problems[:5]) + ("; …" if len(problems) > 5 else ""), problems=refused)
    return Shared(scenario=scenario, lang=lang)


def preheating() -> bool:
    """True inside a kernel Voilà runs ahead of any request (``--preheat_kernel``): the page's URL
    query is not known until someone asks for the page."""
    return os.environ.get("VOILA_PREHEAT") == "True"


def wait_for_request(timeout: float | None = None) -> dict[str, str]:
    """In a kernel Voilà preheated: wait until the page is requested and return the request's
    details (``QUERY_STRING``, ``SERVER_NAME``, ...), also put into ``os.environ`` as Voilà's
    own ``voila.utils.wait_for_request`` does — without importing Voilà into the kernel (that
    import alone costs ~45 MB per kernel)."""
    import json

    from websockets.sync.client import connect

    env = os.environ
    base = env.get("VOILA_WS_BASE_URL") or env.get("VOILA_SERVER_URL") or "/"
    url = (f"{env.get('VOILA_WS_PROTOCOL', 'ws')}://{env.get('VOILA_APP_IP', '127.0.0.1')}:"
           f"{env.get('VOILA_APP_PORT', '8866')}{base}voila/query/{env.get('VOILA_KERNEL_ID', '')}")
    try:
        with connect(url, open_timeout=10, max_size=2**20) as socket:
            info = json.loads(socket.recv(timeout=timeout))
    except Exception as err:  # no server to ask: the page shows the default scenario
        logging.getLogger(__name__).warning("could not read the page request from %s: %s", url, err)
        return {}
    info = {str(k): str(v) for k, v in info.items()}
    os.environ.update(info)
    return info


def request_query() -> str:
    """The page's URL query: waited for in a preheated kernel, else :func:`read_query`."""
    if preheating():
        return wait_for_request().get("QUERY_STRING", "")
    return read_query()


def in_voila() -> bool:
    """True in a kernel that Voilà started (or preheats) for a dashboard page."""
    return os.environ.get("SERVER_SOFTWARE", "").startswith("voila") or "VOILA_PREHEAT" in os.environ


def in_browser() -> bool:
    """True in a kernel that runs in the reader's browser (Pyodide: the static site), which
    cannot see the page's address: the page's :class:`workbook.page.urlbar.UrlBar` tells it."""
    return sys.platform == "emscripten"


def read_query() -> str:
    """The page's URL query: through ``voila.utils.get_query_string()`` inside Voilà (it waits
    for the real request when kernels are preheated), else the ``QUERY_STRING`` variable."""
    if in_voila():
        try:
            from voila.utils import get_query_string
            return get_query_string() or ""
        except Exception:  # an older Voilà or no request info: the variable below still holds it
            pass
    return os.environ.get("QUERY_STRING", "")


def in_jupyter() -> bool:
    """True in a notebook opened in JupyterLab or Jupyter Notebook (not in Voilà): the Jupyter
    server names the notebook of each kernel it starts in ``JPY_SESSION_NAME``."""
    return not in_voila() and bool(os.environ.get("JPY_SESSION_NAME"))


@cache
def jupyter_dashboard_url() -> str:
    """Inside JupyterLab: the address of this notebook as a Voilà dashboard on the same Jupyter
    server (Voilà's server extension serves ``<base>voila/render/<path>``), or ``""`` when the
    server or the notebook cannot be found. The kernel's server is the running server whose pid
    is ``JPY_PARENT_PID``; the notebook is ``JPY_SESSION_NAME``, a path under its root."""
    session = os.environ.get("JPY_SESSION_NAME", "")
    if not session:
        return ""
    try:
        from jupyter_server.serverapp import list_running_servers
        servers = list(list_running_servers())
    except Exception:  # no Jupyter server package, or an unreadable runtime folder
        return ""
    parent = os.environ.get("JPY_PARENT_PID", "")
    servers.sort(key=lambda info: str(info.get("pid")) != parent)  # the kernel's own server first
    for info in servers:
        root, url = info.get("root_dir") or info.get("notebook_dir"), info.get("url")
        if not root or not url:
            continue
        path = Path(session)
        if path.is_absolute():
            try:
                relative = PurePosixPath(path.resolve().relative_to(Path(root).resolve()).as_posix())
            except ValueError:  # a notebook outside this server's root
                continue
        else:
            relative = PurePosixPath(session)
        return f"{url.rstrip('/')}/voila/render/{quote(str(relative))}"
    return ""


def page_url() -> str:
    """The page's own URL without its query: the dashboard's address in Voilà, the notebook's
    Voilà address inside JupyterLab (:func:`jupyter_dashboard_url`), ``""`` when unknown."""
    host = os.environ.get("SERVER_NAME")
    script = os.environ.get("SCRIPT_NAME")
    if host and script:
        scheme = urlsplit(os.environ.get("VOILA_REQUEST_URL", "")).scheme or "http"
        port = os.environ.get("SERVER_PORT")
        return urlunsplit((scheme, f"{host}:{port}" if port else host, script, "", ""))
    request = os.environ.get("VOILA_REQUEST_URL")
    if request:
        parts = urlsplit(request)
        return urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    return jupyter_dashboard_url() if in_jupyter() else ""


def share_url(system: System, scenario: Scenario, lang: str | None = None) -> str:
    """The full link to this page showing ``scenario`` (just ``?query`` when the page URL is
    unknown; a browser resolves that against the current page). Inside JupyterLab it opens the
    notebook as a Voilà dashboard, not JupyterLab again; it is ``""`` there when that address
    cannot be found (a relative link would reload JupyterLab)."""
    if in_jupyter() and not page_url():
        return ""
    return f"{page_url()}?{encode_query(system, scenario, lang)}"
