"""Signed links: a key opens exactly its table for its user and role until it expires."""

from __future__ import annotations

import pytest

from bot.web import links

SECRET = b"k" * 32


def test_a_key_verifies_to_its_pass() -> None:
    key = links.issue(SECRET, 12, 345, "watch", now=1000, ttl=60)
    assert links.verify(SECRET, key, 1059) == links.Pass(12, 345, "watch", 1060)


@pytest.mark.parametrize("change", ["secret", "payload", "mac", "type", "long"])
def test_a_changed_key_is_forged(change: str) -> None:
    key = links.issue(SECRET, 12, 345, "seat", now=1000)
    payload, mac = key.split(".")
    other = links.issue(SECRET, 13, 345, "seat", now=1000).split(".")[0]
    bad: object = {"secret": links.issue(b"x" * 32, 12, 345, "seat", now=1000),
                   "payload": f"{other}.{mac}", "mac": f"{payload}.{mac[:-2]}AA",
                   "type": 12, "long": key + "." + "A" * 300}[change]
    with pytest.raises(links.BadLink) as caught:
        links.verify(SECRET, bad, 1001)
    assert caught.value.code == "forged"


def test_an_old_key_expired() -> None:
    key = links.issue(SECRET, 1, 2, "seat", now=1000, ttl=10)
    with pytest.raises(links.BadLink) as caught:
        links.verify(SECRET, key, 1010)
    assert caught.value.code == "expired"


def test_the_secret_comes_from_the_environment_or_is_made() -> None:
    assert links.secret_from({links.SECRET_ENV: "z" * 40}) == b"z" * 40
    with pytest.raises(ValueError):
        links.secret_from({links.SECRET_ENV: "short"})
    made = links.secret_from({})
    assert len(made) == 32 and made != links.secret_from({})
