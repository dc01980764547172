"""dalmuti-net: The Great Dalmuti on a local network."""

__version__ = "0.1.0"
