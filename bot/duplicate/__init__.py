"""Club duplicate nights: the same boards for every entrant, scored against those who held
the same cards (``docs/duplicate.md``).

Modules: :mod:`~bot.duplicate.scoring` (pure matchpoints, IMPs, ranking),
:mod:`~bot.duplicate.records` (the records' ``duplicate`` tag, reading a folder),
:mod:`~bot.duplicate.text` (the results in words), :mod:`~bot.duplicate.cli`
(``tricktable duplicate score``).
"""
