"""The research agent: planning, recursive evidence discovery, routing, synthesis, guards and coverage."""
