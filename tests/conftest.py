"""Settings shared by every test folder."""

from hypothesis import settings

# `make mutate` runs the core tests once per mutant: the same examples each time, so a mutant's
# verdict does not depend on the draw.
settings.register_profile("mutation", derandomize=True, deadline=None, print_blob=False)
