"""A host's address as typed (``HOST``, ``HOST:PORT``, ``[v6]:PORT``), read without I/O:
the table model reads it from a text field, the commands from their arguments."""

from __future__ import annotations

from ..protocol.catalogue import DEFAULT_PORT
from ..told import N_, Told


class BadAddress(Told, ValueError):
    """An address that cannot be one: ``str()`` is the English sentence, ``told`` the
    sentence in the language of a ``Translator._``."""


def parse_address(text: str, default_port: int = DEFAULT_PORT) -> tuple[str, int]:
    """``HOST``, ``HOST:PORT``, ``[v6]`` or ``[v6]:PORT`` -> (host, port); ValueError if bad."""
    text = text.strip()
    if not text:
        raise BadAddress(N_("give a host name or address, e.g. 192.168.1.20 or ana-laptop:7341"))
    host, port_text = text, ""
    if text.startswith("["):
        end = text.find("]")
        if end < 0:
            raise BadAddress(
                N_("{address}: an IPv6 address in brackets needs its closing ]"),
                address=repr(text),
            )
        host, rest = text[1:end], text[end + 1 :]
        if rest and not rest.startswith(":"):
            raise BadAddress(N_("{address}: expected :PORT after the ]"), address=repr(text))
        port_text = rest[1:]
    elif text.count(":") == 1:
        host, port_text = text.split(":")
    if not host:
        raise BadAddress(N_("{address}: the host part is empty"), address=repr(text))
    if not port_text:
        return host, default_port
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise BadAddress(
            N_("{address}: the port must be a number from 1 to 65535"), address=repr(text)
        )
    return host, int(port_text)


__all__ = ["BadAddress", "parse_address"]
