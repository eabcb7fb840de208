"""The hand record's labels: a direction's hands told apart by seat when partners hold it."""

from __future__ import annotations

from bot.duplicate.text import hand_labels, hand_record_lines
from bot.i18n import translator

HANDS = [["AS"], ["KS"], ["QS"], ["JS"]]


def test_partners_hands_are_labelled_by_direction_and_seat() -> None:
    labels = [label for label, _ in hand_labels([[0, 2], [1, 3]], HANDS, dealer=2)]
    assert labels == ["Direction 1, Seat 0", "Direction 1, Seat 2, dealer",
                      "Direction 2, Seat 1", "Direction 2, Seat 3"]
    assert len(set(labels)) == 4
    assert hand_record_lines([[0, 2], [1, 3]], HANDS, 0)[0] == "Direction 1, Seat 0, dealer: A♠"


def test_a_direction_of_one_seat_is_labelled_by_direction_alone() -> None:
    labels = [label for label, _ in hand_labels([[0], [1], [2]], HANDS[:3], dealer=1)]
    assert labels == ["Direction 1", "Direction 2, dealer", "Direction 3"]


def test_labels_are_in_the_readers_language() -> None:
    t = translator("sw")
    labels = [label for label, _ in hand_labels([[0, 2], [1, 3]], HANDS, None, t)]
    seat = t.gettext("Seat {n}").format(n=2)
    assert labels[1] == t.gettext("{direction}, {seat}").format(
        direction=t.gettext("Direction {number}").format(number=t.number(1)), seat=seat)
    assert "Seat" not in labels[1] and len(set(labels)) == 4
