"""The panels of a dashboard: one protocol (:mod:`workbook.panels.base`), one list of them in
page order (:mod:`workbook.panels.registry`)."""
