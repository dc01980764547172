"""The wire protocol, sans-I/O: framing, codec, the message catalogue and engine mapping."""

from .catalogue import MAX_FRAME_BYTES, MESSAGES, PROTOCOL_VERSION, Direction, Message
from .codec import decode, encode, encode_body, unpack, validate
from .errors import DESCRIPTIONS, FATAL_CODES, ErrorCode, ProtocolError
from .feed import ViewerFeed, snapshot_message
from .framing import FrameReader, frame

__all__ = [
    "DESCRIPTIONS",
    "FATAL_CODES",
    "MAX_FRAME_BYTES",
    "MESSAGES",
    "PROTOCOL_VERSION",
    "Direction",
    "ErrorCode",
    "FrameReader",
    "Message",
    "ProtocolError",
    "ViewerFeed",
    "decode",
    "encode",
    "encode_body",
    "frame",
    "snapshot_message",
    "unpack",
    "validate",
]
