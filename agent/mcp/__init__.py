"""``sleuth mcp``: the MCP server on stdio (a front end: it imports the layers' faces only)."""
