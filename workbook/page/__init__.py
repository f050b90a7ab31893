"""The page's framework: what every dashboard is made of — the form (:mod:`.controls`), the
views of a result (:mod:`.views`) and their tables (:mod:`.table`, without pandas), the chart
widget, the layout, the words (:mod:`.text`), the link (:mod:`.share`, :mod:`.urlbar`,
:mod:`.present`), the notices, and the panel protocol (:mod:`.panel`). It imports nothing of
the panels, the systems or the pages."""
