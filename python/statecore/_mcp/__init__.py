"""``statecore mcp [DIR]`` (docs/mcp.md): the MCP server (``server``), its subscriptions
(``subscriptions``), its HTTP transport (``http``) and its confinement to DIR (``confine``)."""
