"""Packaging that pyproject.toml cannot say: ship the top-level ``migrations/`` folder.

Operators look for the SQL files in ``migrations/`` at the top of the repository, and that
folder stays their single source of truth. The wheel carries the same files as the package
``dealerbot.migrations`` (read with ``importlib.resources``), so a regular ``pip install .``
can migrate its database. Every ``*.sql`` file in the folder and its subfolders (such as
``postgresql/``) is shipped, so a new migration needs no change here. Everything else about
the project is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["dealerbot", "dealerbot.*"]), "dealerbot.migrations"],
    package_dir={"dealerbot.migrations": "migrations"},
    package_data={"dealerbot.migrations": ["**/*.sql"]},
)
