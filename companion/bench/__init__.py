"""Benchmarks behind `companion bench NAME`: each prints figures beside its targets."""
