"""Settings shared by every test folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import Phase, settings

#: `make mutate` runs the fast core tests once per mutant: the same few examples each time (so a
#: mutant's verdict does not depend on the draw), no shrinking of a failure (a mutant only needs
#: to fail, not to be explained), and at most this many examples per property.
MUTATION_EXAMPLES = 12

settings.register_profile("mutation", derandomize=True, deadline=None, print_blob=False, database=None,
                          phases=(Phase.explicit, Phase.reuse, Phase.generate),
                          max_examples=MUTATION_EXAMPLES)


def pytest_collection_modifyitems(config, items):
    """Browser tests last (Playwright keeps an event loop running in the main thread for the
    rest of the session, which the headless widget tests must not see), the static site's last of
    all (Python starting in each page loads both cores: the server's page tests, timed, go
    first); under the mutation
    profile, cap the examples of properties that ask for more explicitly."""
    def place(item) -> int:  # 0 headless, 1 the server's pages, 2 the static site's (Python in the page)
        if "site" in Path(str(item.fspath)).parts and item.get_closest_marker("browser") is not None:
            return 2
        return int(item.get_closest_marker("browser") is not None or "browser" in Path(str(item.fspath)).parts)

    items.sort(key=place)
    if config.getoption("hypothesis_profile", None) != "mutation":
        return
    for item in items:
        test = getattr(item, "obj", None)
        inner = getattr(test, "hypothesis", None)
        own = getattr(getattr(inner, "inner_test", None), "_hypothesis_internal_use_settings", None) \
            or getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > MUTATION_EXAMPLES:
            capped = settings(own, max_examples=MUTATION_EXAMPLES, derandomize=True, database=None,
                              phases=(Phase.explicit, Phase.reuse, Phase.generate))
            test._hypothesis_internal_use_settings = capped


@pytest.fixture(autouse=True)
def _fresh_caches(request):
    """Under the mutation profile, empty the core's caches before each test: mutmut runs a mutant
    only against the tests it saw calling the mutated function, and a test served from a cache
    another test filled would not be seen (a rule reached only through ``hit_injury``'s cache
    survived that way, though a test catches it)."""
    if request.config.getoption("hypothesis_profile", None) == "mutation":
        for name, module in list(sys.modules.items()):
            if name.startswith("rules_core") and module is not None:
                for value in list(vars(module).values()):
                    if callable(getattr(value, "cache_clear", None)):
                        value.cache_clear()


@pytest.fixture
def designed_rule():
    """A designer's rule (tests/example_rule.py, id ``my-2d10``) registered for one test and
    taken away after it, so that no other test sees a fifth system."""
    from rules_core import register, unregister
    from example_rule import SYSTEM

    register(SYSTEM)
    yield SYSTEM
    unregister(SYSTEM.id)


@pytest.fixture(scope="session")
def browser():
    """One Chromium for every browser test of a test worker (tests/browser, tests/site): a
    second Playwright session in the same process would find the first one's event loop."""
    from playwright.sync_api import sync_playwright

    from browser.conftest import CHROMIUM, CHROMIUM_FLAGS

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def returning_browser(browser, tmp_path_factory):
    """A reader's own browser: one context keeping its profile on disk, so that its cache (and
    the code compiled from the pages' scripts, kept with it) serves page after page, where a
    fresh context compiles Voilà's scripts again on every open. No host but 127.0.0.1 resolves
    in it (``OWN_HOST_ONLY``): nothing is routed, since routing turns the cache off."""
    from browser.conftest import CHROMIUM, CHROMIUM_FLAGS, OWN_HOST_ONLY

    context = browser.browser_type.launch_persistent_context(
        str(tmp_path_factory.mktemp("reader-profile")), executable_path=CHROMIUM,
        args=[*CHROMIUM_FLAGS, OWN_HOST_ONLY], viewport={"width": 1280, "height": 1000})
    yield context
    context.close()
