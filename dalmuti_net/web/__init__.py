"""The web table: phones on the LAN play from a browser (see DESIGN.md, The web table)."""
