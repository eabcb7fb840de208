"""A sentence said before its reader is known: a message id and its fields.

Errors and notices are often made far from the reader (the table service refuses a join;
an answer helper tells the player). They carry a :class:`Said` — the English template,
marked for extraction with :func:`~bot.i18n.N_`, and the values of its fields — and the
front end words it in the reader's language with :meth:`Said.text`::

    raise LobbyError(N_("seat {seat} is taken"), seat=3)   # the service
    exc.said.text(t)                                        # the front end: "kiti 3 …"

A field may itself be a :class:`Said` (worded in the same language) or anything else,
inserted as ``str.format`` writes it (numbers such as table ids and seats as plain digits;
text as given: the front end escapes user text before it becomes a field).
``str(said)`` is the English sentence, for logs and for callers that speak English only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.i18n.translator import Translator



@dataclass(frozen=True)
class Said:
    """``message`` (an English ``str.format`` template with named fields) and its fields."""

    message: str
    fields: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    plural: str | None = None
    """The plural template of a message with plural forms (chosen by ``fields["count"]``)."""

    @staticmethod
    def of(message: str, **fields: object) -> Said:
        return Said(message, MappingProxyType(dict(fields)))

    @staticmethod
    def counted(forms: tuple[str, str], count: int, **fields: object) -> Said:
        """A message with plural forms (``ngettext_noop(singular, plural)``), chosen by
        ``count`` (also the field ``{count}``)."""
        return Said(forms[0], MappingProxyType({**fields, "count": count}), forms[1])

    def text(self, t: Translator) -> str:
        """The sentence in ``t``'s language (its English source when untranslated)."""
        if not self.fields:  # not a template: text passed on as it is (braces and all)
            return t.gettext(self.message)
        values = {k: _worded(v, t) for k, v in self.fields.items()}
        try:
            if self.plural is not None:
                count = self.fields.get("count")
                n = count if isinstance(count, int) else 0
                values["count"] = t.number(n)
                return t.ngettext(self.message, self.plural, n).format(**values)
            return t.gettext(self.message).format(**values)
        except (KeyError, IndexError, ValueError):  # a broken translation: say it in English
            try:
                return self.message.format(**values)
            except (KeyError, IndexError, ValueError):
                return self.message

    def __str__(self) -> str:
        from bot.i18n.translator import translator

        return self.text(translator("en"))


def _worded(value: object, t: Translator) -> object:
    return value.text(t) if isinstance(value, Said) else value


def engine_said(exc: Exception) -> Said:
    """An engine error that names no seat or card (an ``OptionError``: a table's host reads
    it) as a :class:`Said` in the reader's language: the engine's template and fields, each
    ``parts`` field a sentence of its own, lists joined with ``, ``. Any other exception: its
    text as it is."""
    template, params = getattr(exc, "template", None), getattr(exc, "params", None)
    if not isinstance(template, str) or not isinstance(params, dict):
        return Said.of(str(exc))
    return _said(template, params)


def _said(template: str, params: Mapping[str, Any]) -> Said:
    fields: dict[str, object] = {}
    for key, value in params.items():
        if key.startswith("parts"):
            fields[key] = _Joined("; ", parts=tuple(_said(str(t), dict(p)) for t, p in value))
        elif isinstance(value, (list, tuple)):
            fields[key] = ", ".join(str(v) for v in value)
        else:
            fields[key] = value
    return Said.of(template, **fields)


@dataclass(frozen=True)
class _Joined(Said):
    """Sentences worded in one language, joined with its ``message`` (``"; "``)."""

    parts: tuple[Said, ...] = ()

    def text(self, t: Translator) -> str:
        return self.message.join(p.text(t) for p in self.parts)


class SaidError(Exception):
    """An error whose message is for a person: :attr:`said` words it in any language;
    ``str(exc)`` is the English sentence. ``SaidError(N_("seat {seat} is taken"),
    seat=3)``; a message without fields is kept as given (braces and all)."""

    def __init__(self, message: str = "", **fields: object) -> None:
        self.said = Said.of(message, **fields)
        super().__init__(str(self.said) if fields else message)
