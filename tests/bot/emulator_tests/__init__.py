"""Tests of the Discord emulator itself: each rule it enforces, at the limit and past it."""
