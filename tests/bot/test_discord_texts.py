"""The words of the table message and the picture's score line, from real engine views."""

from __future__ import annotations

from bot.discord_bot.drawing.texts import score_line
from bot.discord_bot.tables.table_words import refusal_sentence
from bot.i18n import translator
from bot.service import RuleRefusal, TableInfo
from games.actions import Action
from games.cards import card_int
from games.errors import IllegalAction
from games.registry import GAMES


def info_for(game: str, deal: int) -> TableInfo:
    return TableInfo(id=1, location=None, game=game, status="playing",  # type: ignore[arg-type]
                     players=4, seats=(None,) * 4, teams=[(0, 2), (1, 3)], options={},
                     version=0, deal=deal, to_act=(), turn_deadline=None, lobby_deadline=None,
                     settings=None)  # type: ignore[arg-type]


def test_score_line_carries_the_deal_and_the_facts_but_not_trump() -> None:
    deal = GAMES["turup"].match_type(None, None, 0, seed=3).start_deal()
    deal.apply(deal.to_act[0], Action.call_trump("H"))
    line = score_line(info_for("turup", 1), deal.view(None), translator("en"))
    assert line.startswith("Deal 2 · ")
    assert "Tricks A–B 0–0" in line and "Trump" not in line and "hearts" not in line
    assert len(line) <= 120


def test_a_refusal_quoting_someones_input_shows_it_literally_and_pings_nobody() -> None:
    """A forged click's card comes back quoted in the engine's refusal; in Discord it must
    neither format the message nor ping (the names and the card words stay as they are)."""
    forged = "**X** @everyone"
    try:
        card_int(forged)
    except IllegalAction as exc:
        refusal = RuleRefusal.of(exc)
    else:  # pragma: no cover - the engine accepted a forged card
        raise AssertionError("the forged card was accepted")
    for code in ("en", "so"):
        text = refusal_sentence(refusal, None, translator(code))
        assert "\\*\\*X\\*\\*" in text, text
        assert "@everyone" not in text and "@\u200beveryone" in text, text
        assert "**" not in text.replace("\\*\\*", ""), text
    parts = RuleRefusal("{parts}", {"parts": [("{text} and {seat}", {"text": "`x`",
                                                                      "seat": 1})]}, "")
    assert refusal_sentence(parts, None, translator("en")).startswith("\\`x\\` and Seat ")
