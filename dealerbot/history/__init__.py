"""Hand histories: a site-neutral model of a played stud hand (``model``), the PokerStars
text format read (``pokerstars``) and written (``pokerstars_writer``, hands named as the site
names them by ``describe``), the PHH format pokerkit reads (``phh``), and the bridge from a
history to an engine hand script (``script``, docs/replay.md); and the way back, a hand
dealerbot played (as its hand log keeps it) replayed through the engine into the model
(``from_engine``).

Real PokerStars hands replayed through the engine are how we check the engine against a site
that deals millions of stud hands; the same model backs dealerbot's own history export, one
player's view at a time (``model.view_of``).
"""
