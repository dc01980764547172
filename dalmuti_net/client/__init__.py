"""The client: the protocol session, the connection, discovery, the bot SDK and the table UI."""
