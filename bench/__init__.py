"""Benchmarks that print figures: `python -m bench` runs them all."""
