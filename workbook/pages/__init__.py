"""What the notebooks show: the dashboard of a system (:mod:`.dashboard`), the four games side
by side (:mod:`.four_games`), the index (:mod:`.catalog`), the lessons and a page with its prose
in the reader's language (:mod:`.explain`)."""
