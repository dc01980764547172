"""Looking back on a table: what each viewer was sent, hand by hand, rebuilt from a save.

Sans-I/O apart from reading files: the table core itself (``host.table``) is run again
over the save's accepted changes, so the redaction is the table's own, never a copy.
"""
