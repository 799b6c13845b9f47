"""Tests of the measuring instruments in bench/ (the benchmarks' harness, not their figures)."""
