"""The `dalmuti` subcommands (the cli layer: each may use host, client, bots)."""
