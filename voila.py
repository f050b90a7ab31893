# Voilà reads this file at start-up (from the folder it is started in, or the folders named by
# --Voila.config_file_paths): the server root opens the index of dashboards.
from workbook.server import open_index_at_root

open_index_at_root()
