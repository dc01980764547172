"""Roles by seat position (RULES.md rule 5) and the Greater Revolution's mirror (rule 7)."""

from __future__ import annotations

from enum import StrEnum


class Role(StrEnum):
    GREATER_DALMUTI = "greater_dalmuti"
    LESSER_DALMUTI = "lesser_dalmuti"
    MERCHANT = "merchant"
    LESSER_PEON = "lesser_peon"
    GREATER_PEON = "greater_peon"


def role_at(position: int, players: int) -> Role:
    """The role of the seat ``position`` places clockwise from the Greater Dalmuti."""
    if position == 0:
        return Role.GREATER_DALMUTI
    if position == players - 1:
        return Role.GREATER_PEON
    if position == 1:
        return Role.LESSER_DALMUTI
    if position == players - 2:
        return Role.LESSER_PEON
    return Role.MERCHANT


def roles_of(order: tuple[int, ...]) -> dict[int, Role]:
    return {player: role_at(index, len(order)) for index, player in enumerate(order)}


def merchants_of(order: tuple[int, ...]) -> tuple[int, ...]:
    """The Merchants, highest first (the seat left of the Lesser Dalmuti leads them)."""
    return order[2:-2]


def mirrored(order: tuple[int, ...]) -> tuple[int, ...]:
    """Seating after a Greater Revolution: everyone takes their opposite's role."""
    return tuple(reversed(order))
