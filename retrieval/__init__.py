"""Retrieval: offline model provisioning, hybrid dense + sparse index, search. Imports ingest, never agent."""
