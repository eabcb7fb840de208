"""The typed contract between the table service and its front ends, published as JSON.

Python types are the one source: :class:`typing.TypedDict` classes (with ``Literal``,
``list``, ``dict``, ``tuple``, unions and ``None``) are turned into a versioned JSON Schema
(:mod:`bot.contract.jsonschema`), and the schema into TypeScript types for the web front
end (:mod:`bot.contract.typescript`). ``python -m bot.contract`` writes every published
schema and its TypeScript (``python -m bot.contract check``: fails when a committed file is
stale; CI and the tests run it). The publications are listed in
:data:`bot.contract.publish.PUBLICATIONS`.
"""
