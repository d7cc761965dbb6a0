"""Refusal messages in the player's language (the i18n hook).

``explain(code, lang, detail)`` returns the text sent with ``{"type": "error"}``: the
generic explanation of ``code`` in ``lang`` ("en", "es", "ru"; others fall back to
English). The engine's English message is kept as ``detail`` beside it.

>>> explain("must_follow_suit", "es")
'Debes seguir el palo que se salió si tienes cartas de ese palo.'
>>> explain("no_such_code", "fr")
'This action was refused.'
"""

from __future__ import annotations

from typing import Final

LANGUAGES: Final = ("en", "es", "ru")

_TEXTS: Final[dict[str, dict[str, str]]] = {
    # --- engine codes (spec/records.md) ---
    "not_your_turn": {
        "en": "It is not your turn: wait for the seat whose turn it is.",
        "es": "No es tu turno: espera al jugador al que le toca.",
        "ru": "Сейчас не ваш ход: дождитесь игрока, чей ход.",
    },
    "card_not_in_hand": {
        "en": "You do not hold that card.",
        "es": "No tienes esa carta en la mano.",
        "ru": "У вас нет этой карты.",
    },
    "must_follow_suit": {
        "en": "You must follow the suit that was led when you hold a card of it.",
        "es": "Debes seguir el palo que se salió si tienes cartas de ese palo.",
        "ru": "Нужно ходить в масть захода, если у вас есть карты этой масти.",
    },
    "spades_not_broken": {
        "en": "You cannot lead spades until spades are broken (unless you hold nothing else).",
        "es": "No puedes salir con picas hasta que se hayan roto (salvo que no tengas otra cosa).",
        "ru": "Нельзя заходить с пик, пока пики не сломаны (если есть другие масти).",
    },
    "bid_out_of_range": {
        "en": "That bid is outside the allowed range.",
        "es": "Esa apuesta está fuera del rango permitido.",
        "ru": "Такая заявка вне допустимого диапазона.",
    },
    "bid_not_allowed": {
        "en": "That bid is not allowed now.",
        "es": "Esa apuesta no está permitida ahora.",
        "ru": "Такая заявка сейчас не разрешена.",
    },
    "must_include_3h": {
        "en": "The first play of the deal must include the three of hearts.",
        "es": "La primera jugada de la mano debe incluir el tres de corazones.",
        "ru": "Первый ход раздачи должен включать тройку червей.",
    },
    "not_a_combination": {
        "en": "Those cards do not form an allowed combination.",
        "es": "Esas cartas no forman una combinación permitida.",
        "ru": "Эти карты не образуют допустимую комбинацию.",
    },
    "does_not_beat": {
        "en": "That play does not beat the play on the table.",
        "es": "Esa jugada no supera la jugada de la mesa.",
        "ru": "Этот ход не бьёт карты на столе.",
    },
    "must_beat": {
        "en": "You cannot pass when you can beat the play on the table.",
        "es": "No puedes pasar si puedes superar la jugada de la mesa.",
        "ru": "Нельзя пасовать, если можно побить карты на столе.",
    },
    "cannot_pass_as_leader": {
        "en": "The leader cannot pass: play something.",
        "es": "Quien sale no puede pasar: juega algo.",
        "ru": "Заходящий не может пасовать: сделайте ход.",
    },
    "must_lead_2c": {
        "en": "The first trick must be led with the two of clubs.",
        "es": "La primera baza debe salir con el dos de tréboles.",
        "ru": "Первую взятку нужно начинать с двойки треф.",
    },
    "wrong_phase": {
        "en": "That action does not fit the current phase of the game.",
        "es": "Esa acción no corresponde a la fase actual de la partida.",
        "ru": "Это действие не подходит к текущей фазе игры.",
    },
    "bad_record": {
        "en": "That action is malformed.",
        "es": "Esa acción está mal formada.",
        "ru": "Действие записано неверно.",
    },
    # --- server codes ---
    "bad_message": {
        "en": "The message is not a valid protocol message.",
        "es": "El mensaje no es un mensaje válido del protocolo.",
        "ru": "Сообщение не соответствует протоколу.",
    },
    "too_large": {
        "en": "The message is too large.",
        "es": "El mensaje es demasiado grande.",
        "ru": "Сообщение слишком большое.",
    },
    "unknown_type": {
        "en": "Unknown message type.",
        "es": "Tipo de mensaje desconocido.",
        "ru": "Неизвестный тип сообщения.",
    },
    "stale_version": {
        "en": "The table has changed since you last saw it: look at the new state and act again.",
        "es": "La mesa ha cambiado desde que la viste: mira el nuevo estado y vuelve a jugar.",
        "ru": "Состояние стола изменилось: посмотрите на новое состояние и повторите ход.",
    },
    "wrong_seat": {
        "en": "You can only act for your own seat.",
        "es": "Solo puedes jugar por tu propio asiento.",
        "ru": "Можно действовать только за своё место.",
    },
    "not_seated": {
        "en": "You are not seated at this table (spectators cannot act).",
        "es": "No estás sentado en esta mesa (los espectadores no pueden jugar).",
        "ru": "Вы не сидите за этим столом (зрители не могут ходить).",
    },
    "bad_token": {
        "en": "This seat token is not valid for this table.",
        "es": "Este código de asiento no es válido para esta mesa.",
        "ru": "Этот ключ места недействителен для этого стола.",
    },
    "no_table": {
        "en": "There is no such table.",
        "es": "No existe esa mesa.",
        "ru": "Такого стола нет.",
    },
    "not_joined": {
        "en": "Say hello first: join a table or spectate it.",
        "es": "Saluda primero: únete a una mesa o mírala como espectador.",
        "ru": "Сначала поздоровайтесь: сядьте за стол или смотрите как зритель.",
    },
    "already_joined": {
        "en": "This connection has already joined a table.",
        "es": "Esta conexión ya se ha unido a una mesa.",
        "ru": "Это соединение уже подключено к столу.",
    },
    "rate_limited": {
        "en": "Too many messages: slow down.",
        "es": "Demasiados mensajes: ve más despacio.",
        "ru": "Слишком много сообщений: помедленнее.",
    },
    "seat_is_bot": {
        "en": "A computer player is playing this seat now; the table's creator can give it back to you.",
        "es": "Ahora juega este asiento la máquina; quien creó la mesa puede devolvértelo.",
        "ru": "Сейчас это место играет компьютер; создатель стола может вернуть его вам.",
    },
    "game_over": {
        "en": "The game is over.",
        "es": "La partida ha terminado.",
        "ru": "Игра окончена.",
    },
    "server_error": {
        "en": "The server could not save this action; nothing changed. Try again.",
        "es": "El servidor no pudo guardar esta acción; no ha cambiado nada. Inténtalo de nuevo.",
        "ru": "Сервер не смог сохранить ход; ничего не изменилось. Попробуйте ещё раз.",
    },
}

_FALLBACK: Final = {
    "en": "This action was refused.",
    "es": "Esta acción ha sido rechazada.",
    "ru": "Это действие отклонено.",
}

CODES: Final = frozenset(_TEXTS)


def normalize_lang(lang: object) -> str:
    """``"es-AR"`` → ``"es"``; unknown or missing → ``"en"``."""
    if isinstance(lang, str):
        base = lang.strip().lower().replace("_", "-").split("-")[0]
        if base in LANGUAGES:
            return base
    return "en"


def explain(code: str, lang: str = "en", detail: str | None = None) -> str:
    """The generic explanation of ``code`` in ``lang`` (``detail`` is not translated)."""
    lang = normalize_lang(lang)
    texts = _TEXTS.get(code)
    return texts[lang] if texts is not None else _FALLBACK[lang]


def error_message(code: str, lang: str = "en", detail: str | None = None, ref: object = None) -> dict[str, object]:
    """A ``{"type": "error"}`` message; the engine's English text travels as ``detail``."""
    msg: dict[str, object] = {"type": "error", "code": code, "message": explain(code, lang)}
    if detail:
        msg["detail"] = detail
    if ref is not None:
        msg["ref"] = ref
    return msg
