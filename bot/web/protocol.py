"""The web table's wire protocol: every frame as a TypedDict (the one source of the JSON
Schema ``bot/web/protocol.schema.json`` and the page's ``web/src/protocol.ts``).

Every frame is a JSON object with ``v`` (:data:`VERSION`) and ``type``. Cards travel in the
record notation of ``docs/records.md`` (``KS``, ``TH``; ``??`` a card face down);
every sentence is worded by the server from :mod:`bot.words` in the viewer's language, and
the page shows it as text (never as HTML).

The page sends :class:`JoinFrame` first (the signed link's key), then :class:`ActFrame`
per decision, :class:`WhyFrame` to ask why a card may not be played, :class:`AgainFrame`
for a new match (local play). The server answers with :class:`HelloFrame` (with the game's
rules), :class:`HistoryFrame` (the deal so far as its log, and the score sheet: a reload
loses nothing), :class:`SpectatorsFrame` (and again when the count changes), then a
:class:`TableFrame` after every change (the viewer's whole table: a page that reconnects
needs nothing else; with the decision's ``prompt`` and a ``forced`` move said),
:class:`LineFrame` per event worth a sentence, :class:`DealResultFrame` (with the score
sheet), :class:`MatchOverFrame`, :class:`ReasonFrame` (a WhyFrame's answer),
:class:`RevealFrame` (a finished duplicate board, to its entrants), :class:`RefusedFrame`
(an action the table refused: nothing changed), :class:`ClosedFrame` and
:class:`ErrorFrame` (a frame the server could not take: nothing changed).

Every sentence names the viewer ``you`` (:meth:`bot.words.seating.Seating.reading`, the
rule of the table's facts), and says results from the viewer's side (``You won the
match.``).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from bot.contract.jsonschema import Named, schema_of
from games.actions import ActionRecord

VERSION = 1
"""The protocol's version: a frame of another version is refused with an error frame."""


# -- page → server ----------------------------------------------------------------------
class JoinFrame(TypedDict):
    """The first frame of a socket: the key of the signed link (the page's URL fragment)."""

    v: int
    type: Literal["join"]
    key: str


class ActivityFrame(TypedDict):
    """The first frame of the Discord Activity's socket (``/ws/activity``,
    ``docs/activity.md``): the user's access token and the Activity instance."""

    v: int
    type: Literal["activity"]
    access_token: str
    instance_id: str


RelayFrame = TypedDict("RelayFrame", {
    "v": int, "type": Literal["relay"], "pass": str, "nonce": str})
RelayFrame.__doc__ = (
    "The first frame of a socket one process relays to a table's owner (/ws/relay, "
    "docs/scale.md): a relay pass, signed with a key derived from the web secret and "
    "nonce, working once.")


class ActFrame(TypedDict):
    """A decision, chosen at table ``version`` (the ``version`` of the TableFrame shown)."""

    v: int
    type: Literal["act"]
    version: int
    action: ActionRecord


LobbyDo = Literal["join", "add_ai", "start"]
"""What a viewer may do in a lobby: take the first free seat, seat an AI player (the
``rules`` level), start the match."""


class WhyFrame(TypedDict):
    """Ask why a card of the hand may not be played now: the server answers with a
    :class:`ReasonFrame` (the rule's reason in the viewer's words; nothing changes)."""

    v: int
    type: Literal["why"]
    card: str


class AgainFrame(TypedDict):
    """Play again (offered by a MatchOverFrame's ``again``: local play only): a new match
    of the same game and players starts on this page (a new :class:`HelloFrame` with the
    new table's ``key``)."""

    v: int
    type: Literal["again"]


class LobbyActFrame(TypedDict):
    """A lobby action (one the last LobbyFrame's ``actions`` offered), checked by the server
    with Discord's rights: anyone may join a free seat or add an AI player; the player who
    opened the table or a member with Manage Server may start."""

    v: int
    type: Literal["lobby_act"]
    do: LobbyDo


# -- server → page ----------------------------------------------------------------------
class Labels(TypedDict):
    """The page's own words, in the viewer's language."""

    you: str
    partner: str
    dealer: str
    trump: str
    last_trick: str
    review: str
    back: str
    tricks: str
    bella: str
    your_turn: str
    """The turn sentence when a card of the hand is to be picked (the lit ones)."""
    your_turn_choose: str
    """The turn sentence when every choice is a decision button (no card to pick)."""
    hand: str
    score_sheet: str
    """The score sheet's title (``Score sheet``)."""
    log: str
    """The log's title (``What happened``)."""
    help: str
    """The help panel's button (``Rules``)."""
    why: str
    """The question asked for a card that may not be played (``Why not?``)."""
    play_again: str


class Page(TypedDict):
    title: str
    lines: list[str]


class HelloFrame(TypedDict):
    """Who the viewer is at which table (sent once, after a good join)."""

    v: int
    type: Literal["hello"]
    table: int
    game: str
    title: str
    seat: int | None
    """The viewer's seat; ``None``: a spectator (the public view)."""
    language: str
    labels: Labels
    help: list[Page]
    """The game's rules for players (the words of ``tricktable rules``), in sections."""
    key: NotRequired[str]
    """The link key of the table now shown, when it is not the one the page joined with
    (a new match after ``again``): the page keeps it for a reload."""


class SeatInfo(TypedDict):
    """One seat as the viewer sees it."""

    seat: int
    name: str
    ai: bool
    you: bool
    partner: bool
    dealer: bool
    to_act: bool
    cards: int
    """How many cards the seat holds."""
    label: str
    """The seat in words: name, ``(you)``/``(partner)``, the AI level, ``dealer``."""
    player: str
    """Who sits there, in words: ``you``, the name, an AI with its level in players'
    words (``Bilal, AI (strong)``)."""
    avatar: str | None
    """The player's Discord avatar (an https URL on Discord's CDN), when known (the
    Activity, or a bot that knows the member); ``None`` otherwise."""


class TrickCard(TypedDict):
    seat: int
    card: str


class Trick(TypedDict):
    leader: int | None
    cards: list[TrickCard]
    winner: int | None
    line: str
    """The trick in words (who led, who played what, who won)."""


class Choice(TypedDict):
    """One legal action: ``card`` is set when it is chosen by picking that card of the hand
    (a play or a one-card bid), ``variant`` when it is a play with a signal or bella
    (offered beside the card's plain play)."""

    action: ActionRecord
    label: str
    card: str | None
    variant: str | None
    confirm: str | None
    """The question to ask before sending it (conceding gives the opponents the deal)."""
    caption: str | None
    """A short caption to show with the choice (a Truf bid card's ``worth 5``, an
    Albastini bid's ``trump ♥``), when it has one."""


class TableFrame(TypedDict):
    """The viewer's whole table now (sent after every change; a page draws from the last
    one alone)."""

    v: int
    type: Literal["table"]
    version: int
    status: str
    deal: int
    phase: str
    seats: list[SeatInfo]
    trump: str | None
    trump_text: str
    trick: Trick
    last_trick: Trick | None
    hand: list[str]
    """The viewer's cards (record notation, in display order; empty for spectators)."""
    choices: list[Choice]
    variants: list[tuple[str, str]]
    """The variants some choice has (``[key, words]``: a signal, ``bella``), for toggles."""
    facts: list[tuple[str, str]]
    """The deal's state in words: ``[label, sentence]`` pairs."""
    score: str
    deadline: str | None
    """When the turn times out (ISO 8601), if it does."""
    your_turn: bool
    prompt: str
    """What the table waits for, in one sentence: the viewer's decision (``Your bid: tap
    a card; it bids its worth.``) or who is to act (``Waiting for Bilal.``); empty when
    nobody is to act."""
    forced: str | None
    """The viewer's only choice, said (``Your only choice: Play 8♣.``), when exactly one
    action is legal."""


class LineFrame(TypedDict):
    """What just happened, in one sentence (for the log and the live region)."""

    v: int
    type: Literal["line"]
    kind: str
    text: str


class SheetRow(TypedDict):
    """One deal on the score sheet: its number, dealer, what it was played in, each
    side's score of the deal and the running totals (numbers in the viewer's digits)."""

    deal: int
    title: str
    dealer: str
    note: str
    """What the deal was played in, or why it was not (``♥ hearts``, ``redealt``)."""
    points: list[str]
    totals: list[str]


class ScoreSheet(TypedDict):
    """Every finished deal's result and the running score: ``columns`` name the sides
    (``us``/``them``, or the players) in the order of each row's ``points`` and
    ``totals``."""

    title: str
    unit: str
    columns: list[str]
    rows: list[SheetRow]


class HistoryFrame(TypedDict):
    """Sent after the hello (every join, a reload too): the deal in play so far as the
    log's sentences (what the viewer's page would have received), and the score sheet."""

    v: int
    type: Literal["history"]
    deal: int
    lines: list[str]
    sheet: ScoreSheet


class DealResultFrame(TypedDict):
    """A deal's result in words, with its review trick by trick, and the score sheet with
    this deal on it."""

    v: int
    type: Literal["deal_result"]
    deal: int
    title: str
    lines: list[str]
    review: list[Page]
    sheet: ScoreSheet
    next: str | None
    """The words of the button that closes the result when another deal follows (``On to
    deal 2``: the next deal has begun behind it), else ``None`` (the match is over, or a
    duplicate board's only deal)."""


class MatchOverFrame(TypedDict):
    """The match is over: who won, from the viewer's side (``You won the match.``), and
    the final score. ``again``: the label of a **Play again** button when the page may
    start a new match (an :class:`AgainFrame`; local play), else ``None`` and the socket
    ends."""

    v: int
    type: Literal["match_over"]
    title: str
    lines: list[str]
    again: str | None


class SpectatorsFrame(TypedDict):
    """How many people watch the table (spectators' sockets, not seats): sent on join and
    whenever it changes; ``text`` says it (``2 watching``; empty for none)."""

    v: int
    type: Literal["spectators"]
    count: int
    text: str


class ReasonFrame(TypedDict):
    """The answer to a :class:`WhyFrame`: why ``card`` may not be played now (or that it
    may), in the viewer's words."""

    v: int
    type: Literal["reason"]
    card: str
    text: str


class RevealFrame(TypedDict):
    """A duplicate board's reveal (``docs/duplicate.md``), sent only to a seat whose user
    belongs to an entrant that finished the board, once its deal has ended (and again to
    such a socket that connects later): the board's traveller so far, the hands as dealt
    and the AI's result from the viewer's seat, worded by :mod:`bot.duplicate.text`; the
    board's review trick by trick."""

    v: int
    type: Literal["reveal"]
    board: int
    title: str
    """``Board 3``."""
    event: str
    """The event's name (as the director typed it: text)."""
    traveller: list[str]
    """Every result so far, per direction, with its matchpoints (or IMPs)."""
    hands_title: str
    hands: list[str]
    """The hands as dealt, one line each, cards in player words."""
    ai: str
    """What the AI scored in the viewer's seat (and the viewer's own score)."""
    review: list[Page]
    review_label: str
    """The words of the button showing the review (the page may have had no hello)."""


class LobbyAction(TypedDict):
    """A lobby button: what it does and its label (the viewer's words)."""

    do: LobbyDo
    label: str


class LobbyFrame(TypedDict):
    """The table has not started: who sits where so far, and what this viewer may do now
    (``actions``: none when the web table is not bound to Discord's rights)."""

    v: int
    type: Literal["lobby"]
    seats: list[str]
    actions: NotRequired[list[LobbyAction]]


class RefusedFrame(TypedDict):
    """The table refused the action (the rule's reason): nothing changed."""

    v: int
    type: Literal["refused"]
    text: str


class ClosedFrame(TypedDict):
    """The table was closed without a result, or this link no longer opens it."""

    v: int
    type: Literal["closed"]
    text: str


class ErrorFrame(TypedDict):
    """A frame the server could not take (malformed, too large, too many): nothing
    changed. ``code`` is stable for programs; ``text`` is for people."""

    v: int
    type: Literal["error"]
    code: str
    text: str
    fatal: NotRequired[bool]


ClientFrame = (JoinFrame | ActivityFrame | RelayFrame | ActFrame | LobbyActFrame | WhyFrame
               | AgainFrame)
ServerFrame = (HelloFrame | TableFrame | LineFrame | DealResultFrame | MatchOverFrame
               | LobbyFrame | RefusedFrame | ClosedFrame | ErrorFrame | RevealFrame
               | HistoryFrame | SpectatorsFrame | ReasonFrame)
AnyFrame = dict[str, Any]


def schema() -> dict[str, Any]:
    """The protocol's JSON Schema (``python -m bot.contract`` writes it)."""
    return schema_of(
        [Named("ClientFrame", ClientFrame, "A frame the page sends."),
         Named("ServerFrame", ServerFrame, "A frame the server sends.")],
        id="https://tricktable.invalid/schema/web-protocol", title="tricktable web table",
        version=VERSION)
