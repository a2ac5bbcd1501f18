"""The rules engine: pure, deterministic, standard library only.

Nothing here knows about Discord, SQLite, asyncio, the clock or global randomness;
randomness is passed in. Given a deck and a list of actions, a hand always ends
the same way.
"""
