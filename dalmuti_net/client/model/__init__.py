"""The client's table model, sans-I/O: the host's messages as typed views, decoded once.

Every front end (the terminal table, the plain table, the replay, the web table) reads
these views instead of the wire's dicts. Nothing here imports trio or prompt_toolkit.
"""
