"""The numbered SQL migrations, installed as the package ``dealerbot.migrations``.

This file only makes the folder importable, so that the wheel carries the ``*.sql`` files
and ``dealerbot.store.migrate`` finds them with ``importlib.resources`` (see setup.py).
"""
