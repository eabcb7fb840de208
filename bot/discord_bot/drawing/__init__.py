"""Words and pictures for Discord, pure: :mod:`~.safe` (user text escaped, who may be pinged),
:mod:`~.texts` (seats, the lobby, the table message), :mod:`~.rules_texts` (``/rules`` and
``/table options`` embeds), :mod:`~.pictures` (card pictures, drawn off the event loop and
cached) and :mod:`~.duplicate_pictures` (a board's hands as dealt).
"""
