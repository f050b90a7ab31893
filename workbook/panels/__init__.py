"""The panels of a dashboard: one protocol (:mod:`workbook.page.panel`), one list of them in
page order (:mod:`workbook.panels.registry`)."""
