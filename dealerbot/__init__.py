"""dealerbot: a Discord dealer for Seven Card Stud and Stud Hi/Lo (fixed limit)."""

__version__ = "0.1.0"
