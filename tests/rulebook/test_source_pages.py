"""What the source pages say and our pages must say too, in en, es and ru
(issue 18: ``docs/rules.md``; the five source texts are the seeds of the spec)."""

from __future__ import annotations

import pytest

import tapete
from tapete.i18n import translator
from tapete.rulebook import build_page, render_text

SPADES_FAMILY = [p for p in tapete.profile_names() if tapete.profile_info(p).family == "spades"]


def page(profile: str, lang: str) -> str:
    return " ".join(render_text(build_page(profile, lang)).split())


NO_KITTY = {
    "en": "There is no kitty, no exchange of cards and no hidden card left over.",
    "es": "No hay reserva, ni cambio de cartas, ni carta oculta sobrante.",
    "ru": "Нет ни прикупа, ни обмена картами, ни лишней закрытой карты.",
}


@pytest.mark.parametrize("lang", sorted(NO_KITTY))
def test_three_player_pages_say_there_is_no_kitty_exchange_or_hidden_card(lang: str) -> None:
    for profile in SPADES_FAMILY:
        three = tapete.load_profile(profile).players == 3
        assert (NO_KITTY[lang] in page(profile, lang)) == three, profile


LAST_TRICK = {
    "en": "a bonus for the last trick",
    "es": "premios por la última baza",
    "ru": "премия за последнюю взятку",
}


@pytest.mark.parametrize("lang", sorted(LAST_TRICK))
def test_the_last_trick_bonus_is_in_the_list_of_what_is_not_used(lang: str) -> None:
    not_used = translator(lang).gettext("Not used in this profile: {list}.").split("{list}")[0]
    for profile in SPADES_FAMILY:
        text = page(profile, lang)
        start = text.index(not_used)
        assert LAST_TRICK[lang] in text[start : text.index(".", start + len(not_used))], profile


@pytest.mark.parametrize(
    ("lang", "title"), [("en", "Cutthroat Spades"), ("es", "Picas para tres"), ("ru", "Пики втроём")]
)
def test_the_three_player_page_has_the_source_pages_title(lang: str, title: str) -> None:
    assert render_text(build_page("cutthroat", lang)).startswith(title + "\n")


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["a straight:", "a pair run:", "leads again"]),
        ("es", ["una recta:", "una serie de pares:", "Quien lidera", "vuelve a liderar"]),
        ("ru", ["стрит", "цепочка пар"]),
    ],
)
def test_run_fast_uses_the_source_pages_terms(lang: str, words: list[str]) -> None:
    text = page("runfast", lang)
    for word in words:
        assert word in text, word
    if lang == "es":
        assert "escalera" not in text


def test_playing_a_trump_is_triunfar_in_spanish() -> None:
    text = page("cutthroat", "es")
    assert "puede triunfar con una pica" in text and "obligatorio triunfar" in text
    assert "fallar" not in text


@pytest.mark.parametrize(("lang", "you"), [("es", "tú"), ("ru", "вы")])
def test_table_labels_read_right_with_you_as_the_name(lang: str, you: str) -> None:
    t = translator(lang)
    for msgid in ("Won by {name}", "{name} to play"):
        text = t.gettext(msgid).replace("{name}", you)
        assert "gana tú" not in text and "toca a tú" not in text and "заходит вы" not in text, text


OFFICIAL = {
    "en": [
        "Suggested settings",
        "cutthroat-300-5bags",
        "cutthroat-300-perbag",
        "cutthroat-500-3jacks",
        "Four and five players",
        "cutthroat-5p-2jokers",
        "Bidding advice",
        "aces and kings",
    ],
    "es": [
        "Ajustes sugeridos",
        "cutthroat-300-perbag",
        "Cuatro y cinco jugadores",
        "Consejos para anunciar",
        "ases y reyes",
    ],
    "ru": [
        "Рекомендуемые настройки",
        "cutthroat-500-3jacks",
        "Четыре и пять игроков",
        "Советы по заявкам",
        "тузы и короли",
    ],
}


@pytest.mark.parametrize("lang", sorted(OFFICIAL))
def test_the_official_page_has_the_settings_the_larger_tables_and_the_bidding_advice(lang: str) -> None:
    text = page("cutthroat-official", lang)
    for words in OFFICIAL[lang]:
        assert words in text, words
    assert OFFICIAL[lang][0] not in page("cutthroat", lang)


LEVELS = {
    "en": ["The computer players", "easy bids", "normal estimates", "hard bids"],
    "es": ["Los jugadores de la computadora", "fácil anuncia", "normal calcula", "difícil anuncia"],
    "ru": ["Компьютерные игроки", "лёгкий заявляет", "обычный оценивает", "сильный заявляет"],
}


@pytest.mark.parametrize("lang", sorted(LEVELS))
def test_the_partnership_page_says_what_each_computer_level_does(lang: str) -> None:
    for words in LEVELS[lang]:
        assert words in page("spades", lang), words
    assert LEVELS[lang][0] not in page("cutthroat", lang)


@pytest.mark.parametrize(
    ("lang", "same"),
    [
        ("en", "the bags are the same ones as above"),
        ("es", "las bolsas son las mismas de arriba"),
        ("ru", "мешки те же, что выше"),
    ],
)
def test_the_prize_jack_example_adds_no_new_bags(lang: str, same: str) -> None:
    text = page("cutthroat-official", lang)
    assert same in text
    assert "2 bags would be added" not in text and "añadirían 2 bolsas" not in text


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["One card left", "must play their highest card", "Deal 15 cards to each player", "45 cards"]),
        ("es", ["Una carta en mano", "debe jugar su carta más alta", "Reparta 15 cartas", "45 cartas"]),
        ("ru", ["Одна карта на руках", "старшую карту", "по 15 карт", "45 карт"]),
    ],
)
def test_the_fifteen_card_page_states_its_deck_and_the_one_card_rule(lang: str, words: list[str]) -> None:
    text = page("runfast-15", lang)
    for word in words:
        assert word in text, word
    assert words[0] not in page("runfast", lang)
