"""The web page's own words (buttons, headings, settings, the connection's state), in the
viewer's language: sent in the :class:`~bot.web.protocol.HelloFrame`'s ``labels``, and
before any hello by ``GET /api/words`` (the browser's language among the four), so that the
page holds no sentence of its own (``docs/web.md``, "The page's words")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from bot.i18n import N_, SOURCE_LANGUAGE, Translator, match_language, translator
from bot.web.protocol import Labels, PageWords
from bot.words.table_state import YOUR_TURN_CARD, YOUR_TURN_CHOOSE

LABELS: Mapping[str, str] = {
    "you": N_("(you)"),
    "partner": N_("(partner)"),
    "dealer": N_("dealer"),
    "trump": N_("Trump"),
    "last_trick": N_("Last trick"),
    "review": N_("Review"),
    "back": N_("Back"),
    "tricks": N_("Tricks"),
    "bella": N_("Bella"),
    "hand": N_("My hand"),
    "your_turn": YOUR_TURN_CARD,
    "your_turn_choose": YOUR_TURN_CHOOSE,
    "your_turn_short": N_("Your turn"),
    "still_your_turn": N_("Still your turn: the table is waiting for you."),
    "seconds_left": N_("{seconds} s left"),
    "deal_by": N_("Deal {number}, dealt by {name}"),
    "deal_by_you": N_("Deal {number}, dealt by you"),
    "players": N_("Players"),
    "to_play": N_("to play"),
    "led": N_("led"),
    "won_trick": N_("won the trick"),
    "us": N_("us"),
    "them": N_("them"),
    "log": N_("What happened"),
    "score_sheet": N_("Score sheet"),
    "help": N_("Rules"),
    "why": N_("Why not?"),
    "settings": N_("Settings"),
    "close": N_("Close"),
    "card_size": N_("Card size"),
    "small": N_("Small"),
    "medium": N_("Medium"),
    "large": N_("Large"),
    "four_colours": N_("Four-colour deck"),
    "sound": N_("Sound on your turn"),
    "vibrate": N_("Vibrate on your turn"),
    "animation": N_("Animation"),
    "off": N_("Off"),
    "slow": N_("Slow"),
    "normal": N_("Normal"),
    "fast": N_("Fast"),
    "hidden_card": N_("a face-down card"),
    "keys_title": N_("Keys"),
    "keys": N_("The arrows move over the cards you may play; Enter or Space plays the card; "
               "Tab reaches the other buttons."),
    "lost": N_("Connection lost: reconnecting…"),
    "restarting": N_("The server is restarting: reconnecting…"),
    "not_sent": N_("Not connected: nothing was sent. Play again once the table is back."),
    "play_again": N_("Play again"),
}
"""Every key of :class:`~bot.web.protocol.Labels` and its English words."""

NO_KEY = N_("This address has no table key. Open the whole address you were given (it "
            "ends with #k=…): the terminal prints it, and Discord's Open in browser button "
            "opens it.")


def page_labels(t: Translator) -> Labels:
    """The hello frame's ``labels`` in ``t``'s language."""
    return cast(Labels, {key: t.gettext(words) for key, words in LABELS.items()})


def accepted_language(header: str | None) -> str:
    """The first language of an ``Accept-Language`` header that the bot speaks (quality
    order), else English."""
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((header or "").split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, i, tag.strip()))
    for _, _, tag in sorted(ranked):
        found = match_language(tag) if tag and tag != "*" else None
        if found:
            return found
    return SOURCE_LANGUAGE


def page_words(header: str | None) -> PageWords:
    """``GET /api/words``'s answer for an ``Accept-Language`` header."""
    t = translator(accepted_language(header))
    return {"language": t.language, "no_key": t.gettext(NO_KEY),
            "lost": t.gettext(LABELS["lost"])}
