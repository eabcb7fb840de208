"""The words of the table message and the picture's score line, from real engine views."""

from __future__ import annotations

from bot.discord_bot.texts import score_line
from bot.i18n import translator
from bot.service import TableInfo
from games.actions import Action
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
