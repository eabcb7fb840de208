"""What a card picked in a card list plays (the Discord card select, a forwarded pick).

A pick names a card; the seat's legal actions may hold several actions with that card (a
play with or without a declaration, a signal). :func:`resolve_pick` is the one rule every
front end and the cluster inbox (:mod:`bot.cluster.inbox`) apply to it, so a pick played
by the table's owner and one played locally end alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.actions import Action


def variants(legal: Sequence[Action], chosen: Action) -> list[Action]:
    """The legal actions of the same type naming the same card as ``chosen``."""
    return [a for a in legal if a.type == chosen.type and a.card == chosen.card]


def resolve_pick(legal: Sequence[Action], chosen: Action) -> Action | None:
    """What a picked card plays: the exact legal action it names (one tap), else the
    card's only variant, else the choice itself (the service refuses it if it is not
    legal); None when the card has several variants to offer as buttons."""
    options = variants(legal, chosen)
    if chosen in options:
        return chosen
    if len(options) > 1:
        return None
    return options[0] if options else chosen
