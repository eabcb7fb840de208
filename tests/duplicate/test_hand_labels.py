"""The hand record: hands sorted by suit, each seat named one way (its 1-based direction
and a compass-like position, never a 0-based seat number), in the reader's language."""

from __future__ import annotations

import re

from bot.duplicate.hands import board_hands, sorted_hand
from bot.duplicate.text import hand_labels, hand_record_lines
from bot.i18n import translator

HANDS = [["AS"], ["KS"], ["QS"], ["JS"]]


def test_partners_hands_are_labelled_by_direction_and_compass() -> None:
    labels = [label for label, _ in hand_labels([[0, 2], [1, 3]], HANDS, dealer=2)]
    assert labels == ["Direction 1, North", "Direction 1, South, dealer",
                      "Direction 2, East", "Direction 2, West"]
    assert hand_record_lines([[0, 2], [1, 3]], HANDS, 0)[0] == \
        "Direction 1, North, dealer: A♠"


def test_individual_games_name_every_seat_by_compass() -> None:
    labels = [label for label, _ in hand_labels([[0], [1], [2]], HANDS[:3], dealer=1)]
    assert labels == ["Direction 1, North", "Direction 2, South-east, dealer",
                      "Direction 3, South-west"]
    six = [[s] for s in range(6)]
    labels = [h.label for h in board_hands(six, [["AS"]] * 6, dealer=None)]
    assert len(set(labels)) == 6
    for label in labels:  # no 0-based number anywhere
        assert not re.search(r"\b0\b", label), label


def test_hands_are_sorted_by_suit_highest_first() -> None:
    dealt = ["9H", "TS", "AS", "JC", "6C", "JD", "6S", "TC", "KH"]
    assert sorted_hand(dealt) == ["AS", "TS", "6S", "KH", "9H", "JC", "TC", "6C", "JD"]
    line = hand_record_lines([[0], [1]], [dealt, []], dealer=None)[0]
    assert line == "Direction 1, North: A♠ 10♠ 6♠ K♥ 9♥ J♣ 10♣ 6♣ J♦"
    # Albastini's own rank order: A 7 K J Q 6 5 4 3
    assert sorted_hand(["3S", "KS", "7S", "AS", "QS"], "albastini") == [
        "AS", "7S", "KS", "QS", "3S"]


def test_labels_are_in_the_readers_language() -> None:
    t = translator("sw")
    labels = [label for label, _ in hand_labels([[0, 2], [1, 3]], HANDS, None, t)]
    assert labels[1] == t.gettext("{direction}, {position}").format(
        direction=t.gettext("Direction {number}").format(number=t.number(1)),
        position=t.gettext("South"))
    assert "South" not in labels[1] and len(set(labels)) == 4
