"""A viewer's stream read back: what one viewer was sent, as the history file holds it.

The history file format (``record``), its messages cut into hands (``hands``), standings
from the public events (``standings``) and the league file that keeps them across evenings
(``league``), and what a file can get wrong (``problems``). Imports ``protocol`` and
``engine``, never ``host``: the client writes this format (``join --record``) and reads it.
A host's save run again through the table core is ``dalmuti_net.rerun``.
"""
