"""What the players read, for every front end: pure functions, no Discord, no Textual.

Every function takes engine data (deal and match summaries of ``docs/records.md``, views,
events, records, options) and a :class:`~bot.words.seating.Seating` (seat → display name,
the game's sides) and returns sentences: cards with suit symbols (``K♣``, ``Q♥×2``),
players by name, never record notation, engine keys or Python literals. Each sentence is
one gettext message, a ``str.format`` template with named placeholders, in the reader's
language: the :class:`~bot.i18n.Translator` travels with the ``Seating`` (``Seating.of(…,
t=translator("so"))``, ``seating.speaking(t)``), and the functions without a seating take
``t=``; without either they write English (``docs/translating.md``).

The API (import from the modules):

* :mod:`bot.words.seating` — ``Seating.of(game, names, options, t=)``,
  ``Seating.anonymous(game, players, t=)``, ``speaking(t)``; ``name``, ``side_name``,
  ``per_side``, ``per_seat``, ``value``, ``reason`` (an engine refusal in players' words);
  ``join_names``.
* :mod:`bot.words.players` — ``player_name(seat, index, t)`` (a seat's player: an AI without
  its own name is ``AI 2 (rules)``), ``says_level``, ``level_name``.
* :mod:`bot.words.cards` — ``card_text``, ``suit_text``, ``suit_symbol``, ``suit_name``,
  ``grouped``, ``count_text``, ``cards_text``, ``hand_lines``, ``symbols_in``.
* :mod:`bot.words.actions` — ``action_text(action, game, t=)`` (button and menu labels; Truf
  bids with their value), ``truf_bid_value``, ``truf_bid_text``.
* :mod:`bot.words.events` — ``event_line(seating, type, data)``, ``trick_line``,
  ``signal_text``.
* :mod:`bot.words.results` — ``deal_result(seating, summary, number=, match=, deal=)``,
  ``match_result(seating, match_summary)``.
* :mod:`bot.words.review` — ``review_pages(record, seating, deal=)`` (the deal review,
  pages for ◀ ▶), ``show_text(text, t=)`` (``tricktable replay --show``).
* :mod:`bot.words.options` — ``options_text(game, options, t=)`` (values in force with the
  rule file's text), ``option_line``, ``value_text``, ``option_name``, ``option_doc``.
* :mod:`bot.words.rules` — ``rules_pages(game, language)`` (the players' summary, pages
  that fit an embed), ``rules_text`` and ``games_list`` (``tricktable rules``);
  :mod:`bot.words.summary` — the summary files per language (``summary_file``,
  ``option_words``, ``tagline``); :mod:`bot.words.rulebook` — ``rule_file(game)`` (the
  packaged English rule file), ``option_rule_text``.
* :mod:`bot.words.text` — ``Text`` (title and lines; ``body``, ``render``), ``paginate``,
  ``or_english``.
* :mod:`bot.words.table_state` — the table in play in words (the terminal's module).
"""
