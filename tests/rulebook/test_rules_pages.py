"""Rules pages: every profile in every language, fully translated, examples computed by the engine."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.pofile import read_po
from starlette.applications import Starlette
from starlette.testclient import TestClient

import tapete
from tapete.cli import main
from tapete.engine.runfast.settlement import settle
from tapete.engine.spades.scoring import score_hand
from tapete.i18n import LANGUAGES, catalog_path, negotiate, translator
from tapete.rulebook import build_page, render_html, render_text
from tapete.rulebook.examples import SETTLEMENT_HANDS, bomb_example, scoring_example, trick_example
from tapete.rulebook.model import Page, Subheading, block_text
from tapete.rulebook.web import rules_routes

PROFILES = tapete.profile_names()
TRANSLATED = ("es", "ru")
SRC = Path(tapete.__file__).parent
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "s_": None}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(lang: str):  # type: ignore[no-untyped-def]
    with open(catalog_path(lang), "rb") as f:
        return read_po(f, locale=lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_msgid_used_by_every_page_is_translated(lang: str) -> None:
    cat = catalog(lang)
    used: set[tuple[str | None, str]] = set()
    for profile in PROFILES:
        t = translator(lang)
        build_page(profile, lang, t=t)
        used |= t.used
    t = translator(lang)
    build_page("cutthroat", lang, {"target": 300, "bag_rule": "limit", "special_bids": ["1F", "B6"]}, t=t)
    used |= t.used
    missing = sorted(
        (ctx or "", msgid) for ctx, msgid in used if not (m := cat.get(msgid, context=ctx)) or not m.string
    )
    assert not missing, f"untranslated in {lang}: {missing}"


def source_msgids() -> set[tuple[str | None, str]]:
    out: set[tuple[str | None, str]] = set()
    for path in sorted((SRC / "rulebook").glob("*.py")):
        for _line, msg, _comments, ctx in extract_from_file("python", str(path), keywords=KEYWORDS):
            if isinstance(msg, str):
                out.add((ctx, msg))
            elif isinstance(msg, tuple) and msg and isinstance(msg[0], str):
                out.add((ctx, msg[0]))
    return out


@pytest.mark.parametrize("lang", TRANSLATED)
def test_catalog_complete_no_fuzzy_no_empty_same_placeholders(lang: str) -> None:
    cat = catalog(lang)
    assert cat.num_plurals == (3 if lang == "ru" else 2)
    for message in cat:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"empty msgstr for {message.id!r}"
        wanted = set().union(*(set(PLACEHOLDER.findall(i)) for i in ids))
        for s in strings:
            assert set(PLACEHOLDER.findall(s)) <= wanted | {"n"}, (message.id, s)
    for ctx, msgid in source_msgids():
        assert cat.get(msgid, context=ctx) is not None, f"{lang} catalog lacks {msgid!r} ({ctx})"


def test_russian_plural_forms() -> None:
    t = translator("ru")
    forms = [t.ngettext("Play all {n} trick.", "Play all {n} tricks.", n) for n in (1, 3, 17, 21, 22)]
    assert forms == [
        "Сыграйте {n} взятку.",
        "Сыграйте все {n} взятки.",
        "Сыграйте все {n} взяток.",
        "Сыграйте {n} взятку.",
        "Сыграйте все {n} взятки.",
    ]


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_profile_renders(profile: str, lang: str) -> None:
    page = build_page(profile, lang)
    assert [s.number for s in page.sections] == list(range(1, 9))
    assert len({s.anchor for s in page.sections}) == 8 and page.faq
    # like the seeds: history and the chosen variant, then one worked example, last
    assert [s.anchor for s in page.sections][-2:] == ["history", "example"]
    text = render_text(page)
    html = render_html(page)
    for s in page.sections:
        assert f"{s.number:02d} / {s.title}" in text
        assert f'id="{s.anchor}"' in html
        for block in s.blocks:
            if isinstance(block, Subheading):
                assert f'id="{block.anchor}"' in html and f'href="#{block.anchor}"' in html
                assert block.title in text
    ids = re.findall(r'\bid="([^"]+)"', html)
    assert len(ids) == len(set(ids)), "duplicate ids"
    assert f'<html lang="{lang}">' in html
    assert "http://" not in html and "https://" not in html  # no external assets


def test_cutthroat_scoring_numbers_are_the_engines() -> None:
    rules = tapete.load_profile("cutthroat")
    score = score_hand(rules, [5, 6, 4], [7, 6, 4], [0, 0, 0])
    assert score.change == (52, 60, 40)
    nine = score_hand(rules, [5, 6, 4], [7, 6, 4], [9, 0, 0])
    assert nine.change[0] == -48 and nine.bags[0] == 1
    e = scoring_example(rules)
    assert [r.change for r in e.rows] == [52, 60, 40]
    assert e.variant is not None and (e.variant.bags_before, e.variant.change, e.variant.bags_after) == (9, -48, 1)
    for lang in LANGUAGES:
        t = translator(lang)
        page = build_page("cutthroat", lang)
        section = next(s for s in page.sections if s.anchor == "example")
        sub = next(b for b in section.blocks if isinstance(b, Subheading) and b.anchor == "example-scoring")
        body = render_text(page).split(section.title)[1].split(sub.title)[1]
        for value in ("+52", "+60", "+40", t.signed(-48), t.signed(-100)):
            assert value in body, (lang, value)


def test_seed_trick_is_played_by_the_engine() -> None:
    for profile in PROFILES:
        if tapete.profile_info(profile).family == "runfast":
            continue
        e = trick_example(tapete.load_profile(profile))
        assert [p.card for p in e.plays][:3] == ["AH", "2S", "KH"]
        assert e.plays[2].legal == ("KH",) and e.refused_code == "must_follow_suit"
        assert e.winner == "B" and e.next_leader == "B"
        rules = tapete.load_profile(profile)
        assert e.broken_before == (rules.lead_spades == "any_time")  # callbreak: spades may be led at once
        assert e.broken_after and e.next_spade_lead is not None
        assert len(e.plays) == e.players
        assert not any(c.endswith("H") for c in e.plays[1].legal)


def test_partnership_example() -> None:
    rules = tapete.load_profile("spades")
    e = scoring_example(rules)
    expected = score_hand(rules, [4, 5, 5, 0], [5, 3, 5, 0], [0, 0])
    assert tuple(r.change for r in e.rows) == expected.change == (91, 50)
    assert [r.side for r in e.rows] == ["A + C", "B + D"]


def test_runfast_examples_are_the_engines() -> None:
    from tapete.engine.runfast.actions import action_of

    s = settle(1, [int(action_of(h.split())) for h in SETTLEMENT_HANDS], [True, True, False])
    assert s.payments == (16, 0, 42) and s.change == (-16, 58, -42)
    b = bomb_example()
    assert b.bonus == (-10, 20, -10) and b.next_leader == "B"
    text = render_text(build_page("runfast", "en"))
    assert "+58" in text and "-42" in text and "+20" in text


def test_changed_option_changes_the_page() -> None:
    plain = build_page("cutthroat", "es")
    changed = build_page("cutthroat", "es", {"target": 300})
    assert plain.text() != changed.text()
    assert changed.option_notes and "300" in changed.text() and not plain.option_notes
    end = next(s for s in changed.sections if s.anchor == "end")
    assert "300" in render_text(changed).split(end.title)[1]
    # a bag rule change changes the computed example
    limit = build_page("cutthroat", "en", {"bag_rule": "limit"})
    assert "-58" in limit.text() and "-48" not in limit.text()


def test_worked_example_is_one_section_with_its_old_anchors() -> None:
    expected = {
        "cutthroat": ["example-trick", "example-scoring"],
        "spades": ["example-trick", "example-scoring"],
        "runfast": ["example-settlement", "example-bomb-bonus"],
    }
    for profile, subs in expected.items():
        for lang in LANGUAGES:
            page = build_page(profile, lang)
            example = page.sections[-1]
            assert example.anchor == "example" and example.number == 8
            assert [b.anchor for b in example.blocks if isinstance(b, Subheading)] == subs
            assert isinstance(example.blocks[0], Subheading)
            assert not any(s.anchor.startswith("example-") for s in page.sections)
            html = render_html(page)
            assert html.index('id="example"') < html.index(f'id="{subs[0]}"') < html.index(f'id="{subs[1]}"')
    # Run Fast's bomb bonus keeps its anchor, as a part of the settlement section
    runfast = build_page("runfast", "en")
    settlement = next(s for s in runfast.sections if s.anchor == "settlement")
    assert any(isinstance(b, Subheading) and b.anchor == "bomb-bonus" for b in settlement.blocks)


def history(page: Page) -> str:
    section = next(s for s in page.sections if s.anchor == "history")
    assert section.number == 7
    return "\n".join(block_text(b) for b in section.blocks)


def test_history_section_states_the_chosen_variant() -> None:
    spades, cutthroat = history(build_page("spades", "en")), history(build_page("cutthroat", "en"))
    assert spades != cutthroat
    assert "partnerships" in spades
    for lang in ("en", "es", "ru"):  # no history the source pages do not make (issue 18)
        text = history(build_page("spades", lang))
        assert "1930" not in text and "Whist" not in text and "whist" not in text and "вист" not in text
    for name, word in (("spades-deuces", "deuces high"), ("spades-suicide", "suicide")):
        assert word not in history(build_page(name, "en")).split("Off in this variant:")[1]
    for word in ("jokers", "deuces high", "suicide", "blind nil"):
        assert word in spades.split("Off in this variant:")[1], word
    assert "500 points or at -200" in spades
    assert "without partners" in cutthroat and "no exact date or single author" in cutthroat
    assert "2♣" in cutthroat and "200 points" in cutthroat and "excess is kept" in cutthroat
    official = history(build_page("cutthroat-official", "en"))
    assert "tourney" in official and "5 victory tokens" in official and "J♦, J♣" in official
    assert "blind six (B6)" in official and "once per game" in official
    jokers = history(build_page("cutthroat-5p-2jokers", "en"))
    assert "5 players" in jokers and "2 jokers" in jokers and "sits out the first trick" in jokers
    runfast = history(build_page("runfast", "en"))
    assert "Pao De Kuai" in runfast and "Dou Dizhu" in runfast and "48 cards" in runfast and "no kitty" in runfast
    assert "3♥ opens" in runfast and "+20" in runfast and "airplanes" in runfast


@pytest.mark.parametrize("lang", LANGUAGES)
def test_history_section_follows_overridden_options(lang: str) -> None:
    t = translator(lang)
    plain = history(build_page("cutthroat", lang))
    per_hand = history(build_page("cutthroat", lang, {"bag_rule": "per_hand"}))
    assert per_hand != plain
    wanted = t.gettext("bags: each bag costs 10 points in its own hand and nothing accumulates")
    assert wanted in per_hand and wanted not in plain
    target = history(build_page("cutthroat", lang, {"target": 350, "prize_jacks": ["JH"]}))
    assert t.number(350) in target and "J♥" in target and t.number(350) not in plain
    runfast = build_page("runfast", lang, {"first_lead": "3S"})
    opens = t.gettext("{card} opens: the first play must contain it").replace("{card}", "3♠")
    assert opens in history(runfast)
    assert history(build_page("spades", lang)) != history(build_page("cutthroat", lang))


def test_cards_and_numbers_are_localised() -> None:
    assert translator("es").number(-48) == "-48" or "48" in translator("es").number(-48)
    html = render_html(build_page("cutthroat", "ru"))
    assert 'title="туз червей"' in html and 'title="король червей"' in html
    assert 'title="as de corazones"' in render_html(build_page("cutthroat", "es"))
    assert translator("ru").number(1500) == "1\xa0500"


class _Parser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.table_in_scroll = True

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and "div.table-scroll" not in self.stack:
            self.table_in_scroll = False
        cls = dict(attrs).get("class") or ""
        self.stack.append(f"{tag}.{cls}" if cls else tag)

    def handle_endtag(self, tag: str) -> None:
        while self.stack and self.stack.pop().split(".")[0] != tag:
            pass


def test_html_is_phone_and_print_friendly() -> None:
    html = render_html(build_page("cutthroat", "es"))
    p = _Parser()
    p.feed(html)
    assert p.table_in_scroll
    assert 'name="viewport"' in html and "@media print" in html and "overflow-x: auto" in html
    assert 'hreflang="ru"' in html and 'aria-current="page"' in html


def test_routes_language_negotiation_and_errors() -> None:
    client = TestClient(Starlette(routes=rules_routes()))
    r = client.get("/rules/cutthroat", headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    assert r.status_code == 200 and r.headers["content-language"] == "ru" and '<html lang="ru">' in r.text
    r = client.get("/rules/cutthroat", params={"lang": "es", "options": '{"target": 300}'})
    assert r.status_code == 200 and "300" in r.text and "options=" in r.text
    index = client.get("/rules?lang=en")
    assert index.status_code == 200 and all(f"/rules/{p}?" in index.text for p in PROFILES)
    assert client.get("/rules/nope").status_code == 404
    assert client.get("/rules/cutthroat", params={"options": '{"target": -1}'}).status_code == 400
    assert negotiate("de, es;q=0.3, ru;q=0.8") == "ru"


def test_cli_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "cutthroat", "--lang", "es", "--options", '{"target": 300}']) == 0
    out = capsys.readouterr().out
    assert out.startswith("Picas para tres") and "01 / " in out and "300" in out
    assert main(["rules", "nope"]) == 2
