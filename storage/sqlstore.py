"""The one Store implementation, written against :mod:`storage.driver`.

Both backends are this class on a different :class:`~storage.driver.Database`: all SQL and
all rules live in the mixins, so SQLite and PostgreSQL behave the same by construction and
the contract tests check it.
"""

from __future__ import annotations

from storage.adapter_state import AdapterStateMixin
from storage.duplicate import DuplicateMixin
from storage.duplicate_plays import DuplicatePlaysMixin
from storage.inbox import InboxMixin
from storage.languages import LanguagesMixin
from storage.leagues import FixturesMixin, LeaguesMixin
from storage.preferences import PreferencesMixin
from storage.rest_budget import RestBudgetMixin
from storage.results import ResultsMixin
from storage.secrets import SecretsMixin
from storage.tables import TablesMixin
from storage.web_addresses import WebAddressesMixin


class SqlStore(TablesMixin, ResultsMixin, LeaguesMixin, FixturesMixin, InboxMixin,
               AdapterStateMixin, LanguagesMixin, PreferencesMixin, DuplicateMixin,
               DuplicatePlaysMixin, SecretsMixin, WebAddressesMixin, RestBudgetMixin):
    """A :class:`storage.base.Store` on SQLite or PostgreSQL. Use as ``async with``, or
    call :meth:`close`. Construct with :func:`storage.open_store`."""
