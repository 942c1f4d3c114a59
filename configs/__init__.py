"""Shipped configuration: the default settings file and the built-in report templates (package data)."""
