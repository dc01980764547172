"""The host: the table core (sans-I/O) and the trio server around it."""
