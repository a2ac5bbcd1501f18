"""Hand histories: a site-neutral model of a played stud hand, the PokerStars text format, and
the bridge from a history to an engine hand script (shared/REPLAY.md).

Real PokerStars hands replayed through the engine are how we check the engine against a site
that deals millions of stud hands; the same model will back dealerbot's own history export.
"""
