"""The application layer: command line, settings and (soon) the research agent.

Imports retrieval and ingest; nothing imports it.
"""
