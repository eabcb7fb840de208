"""Property: any JSON object reads back exactly as written, on both backends.

"Exactly" means the same text once re-serialised: same keys in the same order, the same
numbers (-0.0, 1e300, integers beyond 64 bits), the same strings (NUL and lone escapes
included, since JSON escapes them).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from storage import ChannelLocation, SqlStore

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=25,
)
objects = st.dictionaries(st.text(max_size=10), values, max_size=6)
_channels = itertools.count(1)  # a fresh location for every example


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(value=objects)
async def test_json_objects_round_trip(store: SqlStore, value: dict[str, Any]) -> None:
    # The examples share one store (function-scoped fixture), so each takes a new table.
    location = ChannelLocation(1, next(_channels))
    table = await store.create_table(location, "truf", options=value, meta=value, seats=[value])
    await store.append_action(table.id, 1, value)
    got = await store.get_table(table.id)
    assert got is not None
    (entry,) = await store.load_actions(table.id)
    expected = json.dumps(value)
    for read_back in (got.options, got.meta, got.seats[0], entry.action):
        assert json.dumps(read_back) == expected
