"""Shared test set-up: this folder is on ``sys.path`` (pytest's rootdir conftest), so any test
module can ``from strategies import scenario_strategy``."""
