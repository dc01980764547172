"""The conformance suite: PROTOCOL.md held true against any host, case by case.

A client written from the document alone (msgpack, the standard library, trio and
trio-websocket; nothing of the project's protocol, client or host code), so that it checks
what the document says rather than our code agreeing with itself. ``dalmuti conformance
HOST[:PORT]`` runs it; each case names the section of PROTOCOL.md it holds, and that
document lists each section's cases (generated from ``registry``).
"""
