"""Benchmarks: measured side by side with the obvious alternative, results written to docs/BENCHMARKS.md."""
