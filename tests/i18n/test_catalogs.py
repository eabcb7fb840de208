"""The message catalogs against the code: every message the code uses is in every catalog,
nothing stale, placeholders and plural forms right — and the maintainer command
(``python -m bot.i18n.catalogs``) that keeps them so."""

from __future__ import annotations

import fnmatch
import gettext
import tomllib
from pathlib import Path

import pytest
from babel import Locale
from babel.messages.catalog import Catalog

from bot.i18n import SOURCE_LANGUAGE, SUPPORTED, checks, load_catalog
from bot.i18n import catalogs as cat

LANGUAGES = [code for code in SUPPORTED if code != SOURCE_LANGUAGE]


@pytest.fixture(scope="module")
def checkout() -> cat.Paths:
    return cat.source_checkout()


@pytest.fixture(scope="module")
def template(checkout: cat.Paths) -> Catalog:
    return cat.extract(checkout)


def _ids(catalog: Catalog) -> set[tuple[str | None, object]]:
    return {(m.context, m.id) for m in catalog if m.id}


def test_the_code_has_messages(template: Catalog) -> None:
    ids = _ids(template)
    assert (None, "“{given}” is not a language the bot speaks. Choose one of: {choices}.") in ids
    assert ("setting", "Language") in ids


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_has_exactly_the_code_messages(template: Catalog, language: str) -> None:
    shipped = _ids(load_catalog(language))
    wanted = _ids(template)
    assert wanted - shipped == set(), f"missing from {language}: run python -m bot.i18n.catalogs"
    assert shipped - wanted == set(), f"stale in {language}: run python -m bot.i18n.catalogs"


def test_template_file_is_up_to_date(checkout: cat.Paths, template: Catalog) -> None:
    assert _ids(cat.read_catalog(checkout.template, "en")) == _ids(template)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_its_placeholders(
    template: Catalog, language: str
) -> None:
    problems = checks.catalog_problems(template, load_catalog(language), language)
    assert problems == []


def test_sources_use_named_fields(checkout: cat.Paths, template: Catalog) -> None:
    assert cat.problems(checkout, template)["template"] == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_parse_and_follow_cldr(language: str) -> None:
    catalog = load_catalog(language)
    choose = gettext.c2py(catalog.plural_expr)
    rule = Locale.parse(language).plural_form
    order: list[str] = [t for t in ("zero", "one", "two", "few", "many", "other")
                        if t in rule.tags or t == "other"]
    assert catalog.num_plurals == len(order)
    assert [choose(n) for n in range(300)] == [order.index(rule(n)) for n in range(300)]
    for message in catalog:
        if message.id and message.pluralizable:
            assert isinstance(message.string, (list, tuple))
            assert len(message.string) == catalog.num_plurals


def test_catalogs_are_package_data(checkout: cat.Paths) -> None:
    """The wheel (and so the Docker image) carries every catalog: setuptools matches the
    package-data patterns of ``bot.i18n`` against paths relative to the package (``locales``
    has no ``__init__.py``, so it is no package of its own)."""
    pyproject = tomllib.loads((checkout.root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["bot.i18n"]
    package = checkout.root / "bot" / "i18n"
    assert not (checkout.locales / "__init__.py").exists()
    files = [checkout.catalog(code) for code in LANGUAGES] + [checkout.template]
    for path in files:
        relative = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(relative, p) for p in patterns), relative


# -- the checker and the maintainer command on a small checkout of their own ----------


def _checkout(root: Path, code: str) -> cat.Paths:
    (root / "babel.cfg").write_text("[python: bot/**.py]\n", encoding="utf-8")
    (root / "bot").mkdir()
    (root / "bot" / "words.py").write_text(code, encoding="utf-8")
    return cat.Paths(root)


WORDS = '''
def lead(t, name, n):
    # Translators: the player who plays the first card of a trick.
    first = t.gettext("{player} leads").format(player=name)
    tricks = t.ngettext("{count} trick", "{count} tricks", n).format(count=n)
    return first, tricks, t.pgettext("suit", "Spades")
'''


def _translate(path: Path, language: str, strings: dict[str, object]) -> None:
    catalog = cat.read_catalog(path, language)
    for message in catalog:
        singular = message.id if isinstance(message.id, str) else message.id[0]
        if message.id and singular in strings:
            message.string = strings[singular]  # type: ignore[assignment]
            message.flags.discard("fuzzy")
    path.write_bytes(cat.render(catalog))


def test_command_creates_updates_and_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _checkout(tmp_path, WORDS)
    root = ["--root", str(tmp_path)]
    for code in LANGUAGES:
        assert cat.main(["init", code, *root]) == 0
    po = paths.catalog("sw")
    created = cat.read_catalog(po, "sw")
    assert created.plural_forms == "nplurals=2; plural=(n != 1);"
    notes = {m.id: m.auto_comments for m in created if m.id}
    assert notes["{player} leads"] == ["the player who plays the first card of a trick."]
    # Nothing translated yet: the check fails and says why.
    assert cat.main(["check", *root]) == 1
    assert "not translated" in capsys.readouterr().out
    _translate(po, "sw", {
        "{player} leads": "{player} anaanza",
        "{count} trick": ("mzunguko {count}", "mizunguko {count}"),
        "Spades": "Jembe",
    })
    _translate(paths.catalog("so"), "so", {
        "{player} leads": "{player} ayaa hormaraya",
        "{count} trick": ("hal gacan", "{count} gacmood"),
        "Spades": "Isbeyd",
    })
    assert cat.main(["check", *root]) == 1
    report = capsys.readouterr().out.splitlines()
    assert report[:3] == ["template: ok", "so: ok", "id: 3 problem(s)"]
    assert "  '{count} trick': not translated" in report
    _translate(paths.catalog("id"), "id", {
        "{player} leads": "{player} memimpin",
        "{count} trick": ("{count} putaran",),
        "Spades": "Sekop",
    })
    assert cat.main(["check", *root]) == 0
    # Running again changes no file: only dates could differ.
    before = po.read_bytes(), paths.template.read_bytes()
    assert cat.main([*root]) == 0
    assert (po.read_bytes(), paths.template.read_bytes()) == before


def test_check_finds_missing_and_stale_messages(tmp_path: Path) -> None:
    paths = _checkout(tmp_path, WORDS)
    cat.main(["init", "id", "--root", str(tmp_path)])
    (tmp_path / "bot" / "words.py").write_text(
        WORDS.replace('"{player} leads"', '"{player} plays first"'), encoding="utf-8"
    )
    found = cat.problems(paths)
    assert "missing: '{player} plays first'" in found["id"]
    assert "stale: '{player} leads'" in found["id"]
    assert any("out of date" in p for p in found["template"])
    # The update adds the new message, drops the stale one and refreshes the template.
    cat.main(["update", "--root", str(tmp_path)])
    ids = {m.id for m in cat.read_catalog(paths.catalog("id"), "id") if m.id}
    assert "{player} plays first" in ids and "{player} leads" not in ids
    assert not any("out of date" in p for p in cat.problems(paths)["template"])


@pytest.mark.parametrize(
    ("translation", "problem"),
    [
        ("{pemain} memimpin", "translation 0 has fields {pemain}, the source {player}"),
        ("memimpin", "translation 0 has fields none, the source {player}"),
        ("{player memimpin", "translation 0: "),
        ("{player!r} memimpin", "translation 0 has fields {player!r}"),
    ],
)
def test_check_compares_placeholders(tmp_path: Path, translation: str, problem: str) -> None:
    paths = _checkout(tmp_path, WORDS)
    cat.main(["init", "id", "--root", str(tmp_path)])
    _translate(paths.catalog("id"), "id", {
        "{player} leads": translation,
        "{count} trick": ("{count} putaran",),
        "Spades": "Sekop",
    })
    found = cat.problems(paths)["id"]
    assert len(found) == 1 and problem in found[0], found


def test_plural_translations_may_drop_the_count_in_a_singular_form(tmp_path: Path) -> None:
    paths = _checkout(tmp_path, WORDS)
    cat.main(["init", "so", "--root", str(tmp_path)])
    _translate(paths.catalog("so"), "so", {
        "{player} leads": "{player} ayaa hormaraya",
        "{count} trick": ("hal gacan", "{count} gacmood"),
        "Spades": "Isbeyd",
    })
    assert cat.problems(paths)["so"] == []
    _translate(paths.catalog("so"), "so", {"{count} trick": ("hal gacan", "gacmo badan")})
    assert cat.problems(paths)["so"] == [
        "'{count} trick': translation 1 has fields none, the source {count}"
    ]
    # Only the number may go, and only from a form used for one number.
    _translate(paths.catalog("so"), "so", {"{player} leads": "hormaraya"})
    assert "'{player} leads': translation 0 has fields none, the source {player}" in (
        cat.problems(paths)["so"]
    )


def test_check_refuses_positional_fields_and_bad_plural_headers(tmp_path: Path) -> None:
    paths = _checkout(tmp_path, 'def f(t):\n    return t.gettext("{} leads")\n')
    cat.main(["init", "id", "--root", str(tmp_path)])
    assert cat.problems(paths)["template"] == [
        "'{} leads': use named fields ({player}), not positional ones"
    ]
    assert checks.plural_rule_problem("id", "nplurals=2; plural=(n != 1);") == (
        "Plural-Forms has 2 forms; CLDR has 1 (other)"
    )
    assert checks.plural_rule_problem("so", "nplurals=2; plural=(n > 1);") == (
        "Plural-Forms picks form 0 for 0; CLDR says 'other'"
    )
    assert "does not parse" in (checks.plural_rule_problem("sw", "nplurals=two") or "")
    assert checks.plural_rule_problem("id", cat.plural_forms("id")) is None


def test_init_refuses_an_existing_catalog(tmp_path: Path) -> None:
    _checkout(tmp_path, WORDS)
    assert cat.main(["init", "id", "--root", str(tmp_path)]) == 0
    with pytest.raises(SystemExit):
        cat.main(["init", "id", "--root", str(tmp_path)])


def test_check_holds_slash_command_texts_to_discord_limits(tmp_path: Path) -> None:
    paths = _checkout(tmp_path, (
        "from bot.i18n import pgettext_noop\n"
        'NAME = pgettext_noop("command name", "table")\n'
        'TEXT = pgettext_noop("command description", "Open a table in this channel")\n'
    ))
    cat.main(["init", "id", "--root", str(tmp_path)])
    ids = {(m.context, m.id) for m in cat.read_catalog(paths.catalog("id"), "id") if m.id}
    assert ids == {("command name", "table"),
                   ("command description", "Open a table in this channel")}
    _translate(paths.catalog("id"), "id", {
        "table": "Meja Baru",
        "Open a table in this channel": "Buka meja " + "x" * 100,
    })
    found = cat.problems(paths)["id"]
    assert "command name 'Meja Baru': 1-32 lowercase letters, digits, - or _" in found
    assert any(p.startswith("command description 'Buka meja") and "110 characters" in p
               for p in found)
    _translate(paths.catalog("id"), "id", {
        "table": "meja",
        "Open a table in this channel": "Buka meja di kanal ini",
    })
    assert cat.problems(paths)["id"] == []


# -- the headers: the tool's revision date, a real language team ----------------------------


def _git(root: Path, *args: str) -> None:
    import subprocess

    subprocess.run(["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@example.org",
                    *args], check=True, capture_output=True)


def _header(path: Path, name: str) -> str:
    line = next(line for line in path.read_text(encoding="utf-8").splitlines()
                if line.startswith(f'"{name}: '))
    return line.split(": ", 1)[1].removesuffix('\\n"')


def test_the_tool_dates_a_revision_once_and_names_the_team(tmp_path: Path) -> None:
    """A new catalog carries the tool's date and team; a hand edit to a committed catalog
    is dated by the next run of the tool, and a further run changes nothing."""
    paths = _checkout(tmp_path, WORDS)
    assert cat.main(["init", "id", "--root", str(tmp_path)]) == 0
    path = paths.catalog("id")
    assert _header(path, "Language-Team") == (
        "Indonesian (tricktable translators: docs/glossary-id.md)")
    first = _header(path, "PO-Revision-Date")
    assert "YEAR" not in first and cat.read_catalog(path, "id").revision_date is not None
    # a placeholder date (an old catalog) is replaced by the check's advice and the update
    text = path.read_text(encoding="utf-8").replace(
        f'"PO-Revision-Date: {first}', '"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE')
    path.write_text(text, encoding="utf-8")
    _translate(path, "id", {"{player} leads": "{player} membuka putaran",
                            "{count} trick": ["{count} putaran"], "Spades": "Sekop"})
    assert "PO-Revision-Date is not set: run python -m bot.i18n.catalogs" in (
        cat.problems(paths)["id"])
    cat.main(["update", "--root", str(tmp_path)])
    assert "YEAR" not in _header(path, "PO-Revision-Date")
    assert cat.problems(paths)["id"] == []
    # committed, then edited by hand: the next update dates it; the one after is a no-op
    _git(tmp_path, "init", "-q")
    old = cat.read_catalog(path, "id")
    old.revision_date = old.revision_date.replace(year=2020)
    path.write_bytes(cat.render(old))
    _git(tmp_path, "add", ".")
    _git(tmp_path, "commit", "-qm", "catalogs")
    _translate(path, "id", {"Spades": "sekop"})
    assert cat.read_catalog(path, "id").revision_date.year == 2020
    assert cat.main(["update", "--root", str(tmp_path)]) == 0
    stamped = cat.read_catalog(path, "id").revision_date
    assert stamped.year > 2020
    text = path.read_bytes()
    cat.main(["update", "--root", str(tmp_path)])
    assert path.read_bytes() == text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_shipped_catalogs_have_real_headers(checkout: cat.Paths, language: str) -> None:
    catalog = cat.read_catalog(checkout.catalog(language), language)
    assert cat.header_problems(catalog) == []
    name = Locale.parse(language).english_name
    assert catalog.language_team.startswith(f"{name} (") and language in catalog.language_team
    assert catalog.last_translator != "FULL NAME <EMAIL@ADDRESS>"
