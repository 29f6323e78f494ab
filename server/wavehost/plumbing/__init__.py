"""Plumbing every layer shares, written once: atomic file writes, child processes that die with
their tree, task groups owned for a context's lifetime. Imports nothing else of wavehost."""
