"""dalmuti-net: The Great Dalmuti on a local network."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("dalmuti-net")
    """The installed distribution's version: pyproject.toml is its one source."""
except PackageNotFoundError:  # pragma: no cover - imported from a checkout never installed
    __version__ = "0+unknown"
