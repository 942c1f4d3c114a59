"""The LLM path: an OpenAI-compatible client with budgets and repair, and the research steps that use it.

Every answer is treated as a plausible lie: whatever a model returns is validated, and the research guards
run after every step (ids exist, quotes verbatim, numbers and names in the cited evidence).
"""
