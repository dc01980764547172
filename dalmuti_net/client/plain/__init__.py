"""The plain-text table, for screen readers, braille displays, dumb terminals and scripts.

``answers`` turns a decision into numbered legal answers and a typed line into one of
them; ``narrator`` words the table as lines (through the full-screen table's own state and
wording); ``runtime`` carries lines between standard input/output and the host; ``command``
starts it for `dalmuti join --plain` and `dalmuti host --plain`.
"""
