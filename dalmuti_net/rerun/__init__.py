"""A host's table run again: what each viewer was sent, hand by hand, rebuilt from a save.

Sans-I/O apart from reading files: the table core itself (``host.table``) is run again
over the save's accepted changes (``frames``), so the redaction is the table's own, never a
copy. ``save`` opens a save read-only, ``sources`` is one way in for a save or a history
file, ``keeper`` writes a running table's results to the league. Only commands import it;
the client reads and writes the stream format in ``dalmuti_net.history``.
"""
