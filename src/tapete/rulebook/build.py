"""Build a rules :class:`~tapete.rulebook.model.Page` from a profile, in one language.

Every fact comes from the loaded rules (and the worked examples from the engine); every
sentence is a msgid of the project's catalogs. Sentences are written with ``{name}``
placeholders that :meth:`Writer.fmt` fills with numbers, cards or text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from babel.numbers import format_decimal

import tapete
from tapete.cards import Card
from tapete.engine.runfast.settlement import (
    BOMB_BONUS,
    BOMB_HELD_PENALTY,
    PER_CARD,
    SPRING_FACTOR,
    TWO_OF_SPADES_PENALTY,
)
from tapete.engine.spades.rules import SpadesRules
from tapete.engine.spades.scoring import score_bid
from tapete.families import family
from tapete.i18n import Translator, translator
from tapete.rulebook import examples as ex
from tapete.rulebook.model import (
    Block,
    Bullets,
    CardRef,
    Inline,
    Num,
    Page,
    Paragraph,
    Question,
    Runs,
    Section,
    Strong,
    Subheading,
    Table,
)

_PLACEHOLDER = re.compile(r"\{(\w+)\}")
Value = int | str | Card | Sequence[Card] | Strong | Num | CardRef | Runs


class Writer:
    """Translated sentences as runs, numbers and cards formatted for one language."""

    def __init__(self, t: Translator) -> None:
        self.t = t

    # the msgid keywords (``_``, ``n_``, ``p_``, ``s_``) are what ``extract_msgids`` looks for
    def s_(self, msgid: str) -> str:
        """A translated string with no placeholders."""
        return self.t.gettext(msgid)

    def p_(self, context: str, msgid: str) -> str:
        return self.t.pgettext(context, msgid)

    def _(self, msgid: str, **values: Value) -> Runs:
        """A translated sentence with its placeholders filled."""
        return self.fmt(self.t.gettext(msgid), values)

    def n_(self, singular: str, plural: str, n: int, **values: Value) -> Runs:
        """A translated sentence whose form follows the count ``n`` (also its ``{n}``)."""
        return self.fmt(self.t.ngettext(singular, plural, n), {"n": n, **values})

    def fmt(self, template: str, values: Mapping[str, Value]) -> Runs:
        out: list[Inline] = []
        pos = 0
        for m in _PLACEHOLDER.finditer(template):
            if m.start() > pos:
                out.append(template[pos : m.start()])
            out += self.value(values[m.group(1)])
            pos = m.end()
        if pos < len(template):
            out.append(template[pos:])
        return tuple(out)

    def value(self, v: Value) -> list[Inline]:
        if isinstance(v, Card):
            return [self.card(v)]
        if isinstance(v, bool):
            raise TypeError("no booleans in sentences")
        if isinstance(v, int):
            return [Num(self.t.number(v), v)]
        if isinstance(v, (str, Strong, Num, CardRef)):
            return [v]
        if isinstance(v, tuple) and all(not isinstance(x, Card) for x in v):
            return list(v)
        out: list[Inline] = []
        for i, c in enumerate(v):
            if i:
                out.append(", ")
            out += self.value(c)
        return out

    def signed(self, v: int) -> Num:
        return Num(self.t.signed(v), v)

    def num(self, v: int) -> Num:
        return Num(self.t.number(v), v)

    def points(self, v: int, scale: int = 1, signed: bool = True) -> Num:
        """Points kept as ints in units of ``1/scale`` (tenths: 32 is written 3.2)."""
        if scale == 1:
            return self.signed(v) if signed else self.num(v)
        text = format_decimal(Decimal(v) / scale, format="#,##0.0", locale=self.t.lang)
        return Num(("+" + text) if signed and v > 0 else text, v)

    # --- cards --------------------------------------------------------------------------
    def rank_name(self, rank: str) -> str:
        names = {
            "A": self.p_("rank", "ace"),
            "K": self.p_("rank", "king"),
            "Q": self.p_("rank", "queen"),
            "J": self.p_("rank", "jack"),
            "T": self.p_("rank", "ten"),
            "9": self.p_("rank", "nine"),
            "8": self.p_("rank", "eight"),
            "7": self.p_("rank", "seven"),
            "6": self.p_("rank", "six"),
            "5": self.p_("rank", "five"),
            "4": self.p_("rank", "four"),
            "3": self.p_("rank", "three"),
            "2": self.p_("rank", "two"),
        }
        return names[rank]

    def suit_name(self, suit: str) -> str:
        """The suit's name on its own (``hearts``)."""
        names = {
            "S": self.p_("suit", "spades"),
            "H": self.p_("suit", "hearts"),
            "D": self.p_("suit", "diamonds"),
            "C": self.p_("suit", "clubs"),
        }
        return names[suit]

    def card(self, card: Card | str) -> CardRef:
        c = Card.parse(card) if isinstance(card, str) else card
        code = str(c)
        if c.is_joker:
            jokers = {
                "RJ": self.p_("card", "big joker"),
                "BJ": self.p_("card", "little joker"),
                "XJ": self.p_("card", "extra joker"),
            }
            return CardRef(code, jokers[code], jokers[code], "J")
        of_suit = {
            "S": self.p_("card name", "spades"),
            "H": self.p_("card name", "hearts"),
            "D": self.p_("card name", "diamonds"),
            "C": self.p_("card name", "clubs"),
        }
        rank, suit = code[0], code[1]
        name = self.fmt(self.p_("card name", "{rank} of {suit}"), {"rank": self.rank_name(rank), "suit": of_suit[suit]})
        symbol = ("10" if rank == "T" else rank) + "♣♦♥♠"["CDHS".index(suit)]
        return CardRef(code, symbol, "".join(str(r) for r in name), suit)

    def cards(self, names: Sequence[str]) -> tuple[Card, ...]:
        return tuple(Card.parse(n) for n in names)


# --- helpers ---------------------------------------------------------------------------------
def _p(runs: Runs) -> Paragraph:
    return Paragraph(runs)


def _join(w: Writer, parts: Sequence[Runs]) -> Runs:
    out: list[Inline] = []
    for i, part in enumerate(parts):
        if i:
            out.append(w.s_(", "))
        out += part
    return tuple(out)


def _sentences(*parts: Runs) -> Runs:
    out: list[Inline] = []
    for i, part in enumerate(parts):
        if i:
            out.append(" ")
        out += part
    return tuple(out)


def offered_bids(r: SpadesRules) -> list[str]:
    """The special bids a seat can ever make here (shoot the moon needs a hand of 14 cards or more)."""
    return [b for b in ("1F", "2F", "B6", "BN", "SM") if b in r.special_bids and (b != "SM" or r.hand_size >= 14)]


def special_bid_name(w: Writer, bid: str) -> str:
    names = {
        "1F": w.s_("one for fifty (1F)"),
        "2F": w.s_("two for forty (2F)"),
        "B6": w.s_("blind six (B6)"),
        "BN": w.s_("blind nil (BN)"),
        "SM": w.s_("shoot the moon (SM)"),
    }
    return names[bid]


def bid_label(w: Writer, bid: object) -> str:
    if bid == 0:
        return w.s_("nil")
    if isinstance(bid, int):
        return w.t.number(bid)
    return str(bid)


def option_label(w: Writer, name: str) -> str:
    labels = {
        "players": w.s_("players"),
        "partnership": w.s_("partnerships"),
        "removed": w.s_("cards removed"),
        "jokers": w.s_("jokers"),
        "target": w.s_("target score"),
        "floor": w.s_("losing floor"),
        "bag_rule": w.s_("bag rule"),
        "bag_limit": w.s_("bag limit"),
        "special_bids": w.s_("special bids"),
        "blind_six": w.s_("blind six allowance"),
        "blind_six_margin": w.s_("points behind the leader for blind six"),
        "prize_jacks": w.s_("prize jacks"),
        "tokens": w.s_("victory tokens"),
        "seating_draw": w.s_("seating draw"),
        "first_lead": w.s_("first lead"),
        "dealer_sits_out_first_trick": w.s_("dealer sits out the first trick"),
        "blind_nil_behind": w.s_("points behind for blind nil"),
        "deuces_high": w.s_("deuces high"),
        "must_beat": w.s_("must beat and trump"),
        "lead_spades": w.s_("leading spades"),
        "min_bid": w.s_("lowest bid"),
        "max_bid": w.s_("highest bid"),
        "suicide": w.s_("suicide bidding"),
        "tenths": w.s_("points in tenths"),
        "deals": w.s_("deals in a game"),
        "deal_size": w.s_("cards dealt to each player"),
        "one_card_rule": w.s_("one card left: highest single"),
    }
    return labels.get(name, name)


def option_value(w: Writer, name: str, value: object) -> Runs:
    if value is None:
        return (w.s_("none"),)
    if isinstance(value, bool):
        return (w.s_("yes") if value else w.s_("no"),)
    if isinstance(value, int):
        return (w.num(value),)
    if isinstance(value, list):
        if not value:
            return (w.s_("none"),)
        if name == "special_bids":
            return _join(w, [(special_bid_name(w, str(v)),) for v in value])
        return _join(w, [(w.card(str(v)),) for v in value])
    choices = {
        "accumulate": w.s_("accumulate (the excess is kept)"),
        "limit": w.s_("limit (the count restarts at 0)"),
        "per_hand": w.s_("per hand (every bag costs 10 points)"),
        "once": w.s_("once per game"),
        "unlimited": w.s_("unlimited"),
        "left_of_dealer": w.s_("the player on the dealer's left"),
        "2C": w.s_("the holder of 2♣"),
        "none": w.s_("none (no bags)"),
        "when_broken": w.s_("once spades are broken"),
        "any_time": w.s_("at any time"),
    }
    if isinstance(value, str) and value in choices:
        return (choices[value],)
    if isinstance(value, str):
        return (w.card(value),) if len(value) == 2 else (value,)
    return (str(value),)


def option_notes(w: Writer, profile: str, rules: Any) -> tuple[Runs, ...]:
    """A sentence for each option of this table that differs from the profile's own."""
    base = tapete.load_profile(profile).options_json()
    now = rules.options_json()
    notes = []
    for name, value in now.items():
        if base.get(name) != value:
            notes.append(
                w._(
                    "{option}: {value} (the profile's own: {default}).",
                    option=option_label(w, name),
                    value=option_value(w, name, value),
                    default=option_value(w, name, base.get(name)),
                )
            )
    return tuple(notes)


def labels(w: Writer) -> dict[str, str]:
    return {
        "contents": w.s_("Contents"),
        "faq": w.s_("Questions and answers"),
        "language": w.s_("Language"),
        "options": w.s_("Options of this table"),
        "scroll": w.s_("On a small screen, scroll wide tables sideways."),
        "index": w.s_("All profiles"),
        "rules_pages": w.s_("Rules pages"),
        "rules_of": w.s_("Rules"),
    }


# --- the page --------------------------------------------------------------------------------
def build_page(
    profile: str, lang: str = "en", options: Mapping[str, object] | None = None, t: Translator | None = None
) -> Page:
    """The rules page of ``profile`` (with ``options``) in ``lang``.

    >>> page = build_page("cutthroat", "es")
    >>> [s.number for s in page.sections]
    [1, 2, 3, 4, 5, 6, 7, 8]
    """
    info = tapete.profile_info(profile)
    rules = tapete.load_profile(profile, options)
    w = Writer(t or translator(lang))
    fam = family(info.family)
    if fam.load_rulebook is None:
        raise ValueError(f"the {fam.name} family has no rules pages")
    sections, faq = fam.load_rulebook()(w, rules)
    return Page(
        profile=profile,
        lang=w.t.lang,
        title=w.s_(info.title),
        summary=(w.s_(info.description),),
        option_notes=option_notes(w, profile, rules),
        sections=tuple(
            Section(anchor, i + 1, title, tuple(blocks)) for i, (anchor, title, blocks) in enumerate(sections)
        ),
        faq=tuple(faq),
        labels=labels(w),
        options=dict(rules.overrides_json()),
    )


SectionSpec = tuple[str, str, list[Block]]


def spades_page(w: Writer, r: SpadesRules) -> tuple[list[SectionSpec], list[Question]]:
    """The sections and FAQ of a Spades-family page (registered in ``tapete.families.spades``)."""
    return spades_sections(w, r), spades_faq(w, r)


def runfast_page(w: Writer, r: Any) -> tuple[list[SectionSpec], list[Question]]:
    """The sections and FAQ of a Run Fast page (registered in ``tapete.families.runfast``)."""
    return runfast_sections(w, r), runfast_faq(w, r)


# --- Spades family ---------------------------------------------------------------------------
def spades_sections(w: Writer, r: SpadesRules) -> list[SectionSpec]:
    return [
        ("cards", w.s_("Players and cards"), spades_cards(w, r)),
        ("deal", w.s_("Deal and bidding"), spades_deal(w, r)),
        ("play", w.s_("Playing a trick"), spades_play(w, r)),
        ("scoring", w.s_("Scoring"), spades_scoring(w, r)),
        ("nil", w.s_("Nil, special bids and prizes"), spades_nil(w, r)),
        ("end", w.s_("End of the game"), spades_end(w, r)),
        ("history", w.s_("History and the chosen variant"), spades_history(w, r)),
        (
            "example",
            w.s_("Worked example"),
            [
                Subheading("example-trick", w.s_("A trick")),
                *spades_trick_example(w, r),
                Subheading("example-scoring", w.s_("Scoring a hand")),
                *spades_scoring_example(w, r),
            ],
        ),
    ]


def _ranks() -> str:
    return "A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3, 2"


def spades_cards(w: Writer, r: SpadesRules) -> list[Block]:
    n = r.players
    if r.partnership:
        who = w._("Four players in two teams of partners who sit opposite each other: A and C against B and D.")
    else:
        who = w.n_("{n} player, each for themself.", "{n} players, each for themself: there are no partners.", n)
    if r.removed:
        removed = w.cards(sorted(r.removed, key=lambda c: -int(Card.parse(c))))
        deck = w.n_(
            "Take {cards} out of a standard 52-card deck: {n} card remains.",
            "Take {cards} out of a standard 52-card deck: {n} cards remain.",
            52 - len(r.removed),
            cards=removed,
        )
    else:
        deck = w._("Use a standard 52-card deck.")
    if r.jokers:
        order = [w.card(j) for j in ("RJ", "BJ", "XJ")[: r.jokers]]
        jokers = w.n_(
            "Add {n} joker; it is the highest spade.",
            "Add {n} jokers; they are the highest spades, in this order: {order}.",
            r.jokers,
            order=_join(w, [(c.name,) for c in order]),
        )
    else:
        jokers = w._("There are no jokers.")
    ranks = w._("Spades are always trumps. Every suit ranks from high to low: {ranks}.", ranks=_ranks())
    total = w.n_("In all, {n} card is dealt.", "In all, {n} cards are dealt.", r.deck_size)
    blocks: list[Block] = [_p(_sentences(who, deck, jokers, total)), _p(ranks)]
    if r.deuces_high:
        blocks.append(
            _p(
                w._(
                    "Deuces high: {d2} counts as a spade, and {d2} and {s2} are the two highest trumps, in that order, above "
                    "{sa}; then the spades go down from {sa} to {s3}. Diamonds have 12 cards.",
                    d2=Card.parse("2D"),
                    s2=Card.parse("2S"),
                    sa=Card.parse("AS"),
                    s3=Card.parse("3S"),
                )
            )
        )
    return blocks


def spades_deal(w: Writer, r: SpadesRules) -> list[Block]:
    n = r.players
    dealer = n - 1
    sizes = r.hand_sizes(dealer)
    if r.seating_draw:
        first = w._(
            "Before the first deal each player draws a card: the highest deals first, the next highest sits on the "
            "dealer's left, and so on. Equal draws draw again."
        )
    else:
        first = w._("Draw lots for the first dealer.")
    rotate = w._("After every hand the deal passes one seat to the left (clockwise).")
    if len(set(sizes)) == 1:
        deal = w.n_(
            "Deal all the cards one at a time, clockwise, starting on the dealer's left: {n} card each.",
            "Deal all the cards one at a time, clockwise, starting on the dealer's left: {n} cards each.",
            sizes[0],
        )
    else:
        deal = w._(
            "Deal all the cards one at a time, clockwise, starting on the dealer's left: the dealer gets {low} "
            "cards and everyone else {high}.",
            low=sizes[dealer],
            high=max(sizes),
        )
    top = min(max(sizes), r.bid_range[1])
    if r.min_bid == 0:
        bids = w._(
            "Starting on the dealer's left, each player bids once, publicly, the number of tricks they expect to "
            "win, from 0 to {max}. A bid cannot be passed or changed, and the bids may add up to any total.",
            max=top,
        )
    else:
        bids = w._(
            "Starting on the dealer's left, each player bids once, publicly, the number of tricks they expect to "
            "win, from {min} to {max}. A bid cannot be passed or changed, and the bids may add up to any total.",
            min=r.min_bid,
            max=top,
        )
    dealt = [first, rotate, deal]
    if n == 3 and len(set(sizes)) == 1:
        dealt.append(w._("There is no kitty, no exchange of cards and no hidden card left over."))
    blocks: list[Block] = [_p(_sentences(*dealt)), _p(bids)]
    extra: list[Runs] = []
    if r.min_bid == 0:
        extra.append(
            w._("A bid of 0 is {nil}: a promise to win no trick at all. It is not a pass.", nil=Strong(w.s_("nil")))
        )
    else:
        extra.append(w._("There is no nil: nobody may bid 0."))
    if r.suicide:
        extra.append(
            w._(
                "Suicide: in each team one partner bids nil and the other at least 4. The first of the two partners to "
                "bid chooses nil or a bid from 4 up; the second must then take the other role."
            )
        )
    if r.partnership:
        extra.append(w._("A team's contract is the sum of its two players' bids other than nil."))
    if r.special_bids:
        specials = offered_bids(r)
        extra.append(
            w._(
                "This profile also offers special bids (section 5): {bids}.",
                bids=_join(w, [(special_bid_name(w, b),) for b in specials]),
            )
        )
    if {"BN", "B6"} & r.special_bids and not r.blind_nil_behind:
        extra.append(
            w._(
                "Every hand, everybody starts with their cards face down. At your turn to bid you choose a blind "
                "bid or to look at your cards; after looking you bid normally."
            )
        )
    blocks.append(_p(_sentences(*extra)))
    return blocks


def spades_play(w: Writer, r: SpadesRules) -> list[Block]:
    out: list[Runs] = []
    if r.first_lead == "2C":
        out.append(w._("The holder of {card} must lead it to the first trick.", card=Card.parse("2C")))
        if r.dealer_sits_out_first_trick:
            out.append(
                w._(
                    "The dealer, who has one card fewer, does not play to the first trick: it has {n} cards, "
                    "played clockwise from its leader, skipping the dealer. If the dealer holds {card}, the player "
                    "on the dealer's left leads the first trick instead, with any card but a spade unless holding "
                    "only spades.",
                    n=r.players - 1,
                    card=Card.parse("2C"),
                )
            )
    elif r.lead_spades == "any_time":
        out.append(
            w._("The player on the dealer's left leads the first trick with any card: spades may be led at any time.")
        )
    else:
        out.append(
            w._(
                "The player on the dealer's left leads the first trick with any card except a spade, unless holding "
                "only spades."
            )
        )
    if r.dealer_sits_out_first_trick and r.first_lead != "2C":
        out.append(
            w._(
                "The dealer, who has one card fewer, does not play to the first trick, which has {n} cards.",
                n=r.players - 1,
            )
        )
    if r.must_beat:
        follow = w._(
            "Play goes clockwise. Follow the suit led if you can, with a card higher than the highest card of that "
            "suit in the trick when you have one; once a spade has been played on a trick led in another suit, any "
            "card of the suit led will do. If you cannot follow, you must play a spade, higher than every spade in "
            "the trick when you can; if you cannot play a higher spade, play any card."
        )
    else:
        follow = w._(
            "Play goes clockwise. Follow the suit led if you can. If you cannot, play any card: you may trump with a "
            "spade or throw another suit. Neither trumping nor beating the cards played is ever compulsory."
        )
    win = w._(
        "The highest spade wins the trick; with no spade in it, the highest card of the suit led wins. The winner "
        "collects the trick and leads the next one."
    )
    broken_word = Strong(w.s_("broken"))
    broken = w._(
        "Nobody may lead a spade before a spade has been played on a trick led in another suit, unless holding "
        "only spades. From then on spades are {broken}. Leading spades from a hand of only spades does not by "
        "itself break them.",
        broken=broken_word,
    )
    blocks: list[Block] = [_p(_sentences(*out)), _p(_sentences(follow, win))]
    if r.lead_spades == "when_broken":
        blocks.append(_p(broken))
    if r.deuces_high:
        blocks.append(
            _p(
                w._(
                    "{d2} is a spade everywhere: it follows a spade lead, it is no diamond, leading it is a "
                    "spade lead, and playing it on another suit breaks spades.",
                    d2=Card.parse("2D"),
                )
            )
        )
    if r.jokers:
        blocks.append(
            _p(
                w._(
                    "Jokers are spades everywhere: leading one is a spade lead, and playing one on "
                    "another suit breaks spades."
                )
            )
        )
    tricks = max(r.hand_sizes(r.players - 1))
    blocks.append(
        _p(
            _sentences(
                w.n_("Play all {n} trick.", "Play all {n} tricks.", tricks),
                w._(
                    "A card or bid against the rules is refused with the reason; the same player acts again, and it "
                    "never costs points."
                ),
            )
        )
    )
    return blocks


def spades_scoring(w: Writer, r: SpadesRules) -> list[Block]:
    if r.partnership:
        made = w._(
            "A team that wins at least its contract scores 10 points per trick of the contract and 1 point per extra "
            "trick; otherwise it loses 10 points per trick of the contract. Both partners' tricks count, a failed "
            "nil bidder's included; a team whose two players both bid nil has a contract of 0."
        )
        keeper = w._("Extra tricks are {bags}: keep a running count for each team.", bags=Strong(w.s_("bags")))
    elif r.tenths:
        made = w._(
            "A bid is made with at least as many tricks as bid: it scores the bid in points plus 0.1 per extra "
            "trick, so a bid of 3 with 5 tricks scores {example}. A bid that is not made loses the bid: {failed}.",
            example=w.points(score_bid(3, 5).points, 10),
            failed=w.points(score_bid(3, 2).points, 10),
        )
        keeper = w._("Points are counted in tenths; totals are written with one decimal.")
    else:
        made = w._(
            "A positive bid that is made scores 10 points per trick bid and 1 point per extra trick. A bid that is "
            "not made loses 10 points per trick bid, with nothing for the tricks won."
        )
        keeper = w._("Extra tricks are {bags}: keep a running count for each player.", bags=Strong(w.s_("bags")))
    if r.bag_rule == "none":
        return [
            _p(made),
            _p(_sentences(keeper, w._("There are no bags: extra tricks cost nothing later. Totals may be negative."))),
        ]
    L = r.bag_limit
    if r.bag_rule == "accumulate":
        rule = w._(
            "Each time the count reaches {limit} bags, subtract {points} points and {limit} bags; the excess carries "
            "over.",
            limit=L,
            points=10 * L,
        )
    elif r.bag_rule == "limit":
        rule = w._(
            "When the count reaches {limit} bags after a hand, subtract 10 points for every bag counted and start "
            "again from 0: the excess is not kept.",
            limit=L,
        )
    else:
        rule = w._("Every bag costs 10 points in the hand it is taken; bags do not accumulate.")
    separate = w._("The point per extra trick is never taken back: the penalty is separate. Totals may be negative.")
    return [_p(made), _p(_sentences(keeper, rule, separate))]


def spades_nil(w: Writer, r: SpadesRules) -> list[Block]:
    made, failed = score_bid(0, 0), score_bid(0, 2)
    if r.min_bid > 0:
        nil = w._("No nil: the lowest bid is {n}.", n=r.min_bid)
    elif r.partnership:
        nil = w._(
            "Nil: the nil bidder's team scores {made} if the nil bidder wins no trick, and {failed} if they win any. "
            "Their tricks still count for the partner's contract.",
            made=w.signed(made.points),
            failed=w.signed(failed.points),
        )
    else:
        nil = w._(
            "Nil: no trick scores {made}; any trick scores {failed}, the tricks earn no points and each of them is a "
            "bag. A nil is the bidder's own: nobody can cover it.",
            made=w.signed(made.points),
            failed=w.signed(failed.points),
        )
    blocks: list[Block] = [_p(nil)]
    if r.special_bids:
        items: list[Runs] = []
        if "1F" in r.special_bids:
            items.append(
                w._(
                    "{bid}: exactly 1 trick scores {exact}; more tricks score as an ordinary bid of 1; no "
                    "trick scores {none}.",
                    bid=special_bid_name(w, "1F"),
                    exact=w.signed(score_bid("1F", 1).points),
                    none=w.signed(score_bid("1F", 0).points),
                )
            )
        if "2F" in r.special_bids:
            items.append(
                w._(
                    "{bid}: exactly 2 tricks score {exact}; more tricks score as an ordinary bid of 2; "
                    "fewer score {none}.",
                    bid=special_bid_name(w, "2F"),
                    exact=w.signed(score_bid("2F", 2).points),
                    none=w.signed(score_bid("2F", 1).points),
                )
            )
        if "B6" in r.special_bids:
            allowance = w.s_("once per player per game") if r.blind_six == "once" else w.s_("as often as that holds")
            items.append(
                w._(
                    "{bid}, bid before seeing your cards: 6 tricks or more score {made} and the extra tricks "
                    "are bags; fewer score {failed}. Allowed only when you are at least {margin} points "
                    "behind the leader, {allowance}.",
                    bid=special_bid_name(w, "B6"),
                    made=w.signed(score_bid("B6", 6).points),
                    failed=w.signed(score_bid("B6", 5).points),
                    margin=r.blind_six_margin,
                    allowance=allowance,
                )
            )
        if "BN" in r.special_bids:
            items.append(
                w._(
                    "{bid}, bid before seeing your cards: no trick scores {made}, otherwise {failed} and "
                    "the tricks are bags.",
                    bid=special_bid_name(w, "BN"),
                    made=w.signed(score_bid("BN", 0).points),
                    failed=w.signed(score_bid("BN", 1).points),
                )
            )
            if r.blind_nil_behind:
                items.append(
                    w._(
                        "Blind nil is allowed only to a side at least {n} points behind the leader at the "
                        "start of the hand; only those players start the hand face down.",
                        n=r.blind_nil_behind,
                    )
                )
        if "SM" in offered_bids(r):
            items.append(
                w._(
                    "{bid}: a promise of at least 14 tricks, offered only to a player dealt 14 cards or more. "
                    "Made, it scores {made} flat, with no bags and no bag penalty that hand; failed, {failed}.",
                    bid=special_bid_name(w, "SM"),
                    made=w.signed(score_bid("SM", 14).points),
                    failed=w.signed(score_bid("SM", 13).points),
                )
            )
        blocks.append(Bullets(tuple(items)))
    if not r.partnership and ex.bid_outcomes(r):
        rows = tuple(
            ((bid_label(w, o.bid),), (w.num(o.tricks),), (w.signed(o.points),), (w.num(o.bags),))
            for o in ex.bid_outcomes(r)
        )
        blocks.append(
            Table(
                caption=w._("What these bids score, as computed by the engine."),
                header=(w.s_("bid"), w.s_("tricks won"), w.s_("points"), w.s_("bags")),
                rows=rows,
                numeric=(False, True, True, True),
            )
        )
    jacks: list[Runs] = []
    for jack in ("JD", "JC"):
        if jack in r.prize_jacks:
            jacks.append(
                w._("Winning the trick that holds {card} scores +10, whatever the bid.", card=Card.parse(jack))
            )
    if "JH" in r.prize_jacks:
        jacks.append(
            w._(
                "Winning the trick that holds {card} removes one bag from the winner's count (never below 0) "
                "before the penalty is checked.",
                card=Card.parse("JH"),
            )
        )
    if jacks:
        blocks.append(_p(_sentences(w._("Prize jacks:"), *jacks)))
    missing = [special_bid_name(w, b) for b in ("1F", "2F", "B6", "BN", "SM") if b not in offered_bids(r)]
    if not r.prize_jacks:
        missing.append(w.s_("prize jacks"))
    missing.append(w.s_("a bonus for the last trick"))
    if missing:
        blocks.append(_p(w._("Not used in this profile: {list}.", list=_join(w, [(m,) for m in missing]))))
    return blocks


def spades_end(w: Writer, r: SpadesRules) -> list[Block]:
    out: list[Runs] = []
    if r.deals is not None:
        out.append(
            w.n_(
                "A game is {n} deal; after it, the highest total wins.",
                "A game is {n} deals; after the last one, the highest total wins.",
                r.deals,
            )
        )
        out.append(
            w._("If the highest total is shared, further whole deals are played until one side alone is on top.")
        )
    elif r.partnership:
        if r.floor is not None:
            out.append(
                w._(
                    "After a complete hand, if a team has {target} points or more, or {floor} or less, the game "
                    "ends and the higher total wins.",
                    target=r.target,
                    floor=w.signed(r.floor),
                )
            )
        else:
            out.append(
                w._(
                    "After a complete hand, if a team has {target} points or more, the game ends and the "
                    "higher total wins.",
                    target=r.target,
                )
            )
        out.append(w._("If the totals are equal, play another hand, until they differ."))
    else:
        out.append(
            w._(
                "After a complete hand, if anybody has {target} points or more and one player alone has the "
                "highest total, that player wins.",
                target=r.target,
            )
        )
        out.append(
            w._(
                "If the highest total is shared, everybody plays further complete hands until one player "
                "alone is on top; nobody is left out."
            )
        )
        if r.floor is not None:
            out.append(w._("A player at {floor} or less also ends the game.", floor=w.signed(r.floor)))
        else:
            out.append(w._("There is no lower limit."))
    out.append(w._("A hand is always played to its end."))
    blocks: list[Block] = [_p(_sentences(*out))]
    if r.tokens is not None:
        blocks.append(
            _p(
                w.n_(
                    "The winner of a game receives a victory token; the first player to collect {n} token wins the "
                    "tournament. A new game starts from zero points, bags and blind sixes, and the deal keeps rotating.",
                    "The winner of a game receives a victory token; the first player to collect {n} tokens wins the "
                    "tournament. A new game starts from zero points, bags and blind sixes, and the deal keeps rotating.",
                    r.tokens,
                )
            )
        )
    return blocks


def spades_history(w: Writer, r: SpadesRules) -> list[Block]:
    """Where the game comes from (fixed text), then the variant these options choose (generated)."""
    origin: list[Runs] = [
        w._(
            "Spades is a trick-taking game in which every player bids the number of tricks they will win and "
            "spades are always trumps. Its classic form is for four players in two partnerships."
        ),
    ]
    if r.must_beat:
        origin.append(
            w._(
                "Call Break is a related game for four players, each for themself, in which beating the "
                "cards played and trumping are compulsory; this page follows those rules."
            )
        )
    else:
        origin.append(
            w._(
                "Nobody is ever forced to trump or to beat the cards played, which sets it apart from "
                "related games such as Call Break."
            )
        )
    cutthroat: list[Runs] = []
    if not r.partnership and not r.must_beat:
        cutthroat.append(
            w._(
                "Cutthroat Spades is the same game without partners: everybody bids, plays and scores "
                "alone, so it suits three players or more."
            )
        )
        cutthroat.append(
            w._(
                "Cutthroat tables differ in the cards removed, the first lead and the bag penalties; "
                "no exact date or single author is established for them."
            )
        )
        if r.special_bids or r.prize_jacks or r.tokens is not None:
            cutthroat.append(
                w._(
                    "The official Cutthroat rules add special bids, prize jacks and victory tokens, "
                    "which decide a tourney of several games; this variant draws on them."
                )
            )
        else:
            cutthroat.append(
                w._(
                    "The official Cutthroat rules add special bids, prize jacks and victory tokens, "
                    "which decide a tourney of several games; this variant leaves them out."
                )
            )
    items: list[Runs] = []
    if r.partnership:
        items.append(w._("four players in two partnerships, partners sitting opposite each other"))
    else:
        items.append(w.n_("{n} player, each for themself", "{n} players, each for themself", r.players))
    if r.removed:
        removed = w.cards(sorted(r.removed, key=lambda c: -int(Card.parse(c))))
        items.append(
            w.n_(
                "{cards} taken out of the 52-card deck, leaving {n} card",
                "{cards} taken out of the 52-card deck, leaving {n} cards",
                52 - len(r.removed),
                cards=removed,
            )
        )
    else:
        items.append(w._("the full 52-card deck"))
    if r.jokers:
        items.append(w.n_("{n} joker added as the highest spade", "{n} jokers added as the highest spades", r.jokers))
    if r.deuces_high:
        items.append(
            w._(
                "deuces high: {d2} and {s2} are the two highest trumps, above {sa}",
                d2=Card.parse("2D"),
                s2=Card.parse("2S"),
                sa=Card.parse("AS"),
            )
        )
    if r.must_beat:
        items.append(
            w._(
                "follow suit and beat the highest card of the suit when able (any card of the suit once a "
                "spade has cut it); void, trump, over-trumping when able; unable to over-trump, any card"
            )
        )
    if r.lead_spades == "any_time":
        items.append(w._("spades may be led at any time"))
    if r.min_bid > 0 or r.max_bid is not None:
        items.append(w._("bids from {min} to {max}", min=r.min_bid, max=r.bid_range[1]))
    if r.suicide:
        items.append(
            w._(
                "suicide: the first partner of each team to bid chooses nil or 4 or more, the other takes "
                "the other role"
            )
        )
    if "BN" in r.special_bids and r.partnership:
        if r.blind_nil_behind:
            items.append(w._("blind nil only for a team at least {n} points behind", n=r.blind_nil_behind))
        else:
            items.append(w._("blind nil allowed whatever the score, with no exchange of cards between partners"))
    if r.tenths:
        items.append(w._("a made bid scores the bid plus 0.1 per extra trick, a failed one loses the bid"))
    if r.seating_draw:
        items.append(w._("seats and the first dealer drawn by cards"))
    if r.first_lead == "2C":
        items.append(w._("the holder of {card} leads the first trick", card=Card.parse("2C")))
        if r.dealer_sits_out_first_trick:
            items.append(w._("the dealer, one card short, sits out the first trick"))
    else:
        items.append(w._("the player on the dealer's left leads the first trick"))
        if r.dealer_sits_out_first_trick:
            items.append(w._("the dealer, one card short, sits out the first trick"))
    if r.bag_rule == "accumulate":
        items.append(
            w.n_(
                "bags: every {n} bag costs {points} points and the excess is kept",
                "bags: every {n} bags cost {points} points and the excess is kept",
                r.bag_limit,
                points=10 * r.bag_limit,
            )
        )
    elif r.bag_rule == "limit":
        items.append(
            w.n_(
                "bags: reaching {n} bag costs 10 points per bag and the count restarts at 0",
                "bags: reaching {n} bags costs 10 points per bag and the count restarts at 0",
                r.bag_limit,
            )
        )
    elif r.bag_rule == "per_hand":
        items.append(w._("bags: each bag costs 10 points in its own hand and nothing accumulates"))
    else:
        items.append(w._("no bags"))
    specials = offered_bids(r)
    if specials:
        items.append(w._("special bids: {bids}", bids=_join(w, [(special_bid_name(w, b),) for b in specials])))
    if "B6" in r.special_bids:
        items.append(
            w.n_(
                "blind six: {allowance}, only for a player at least {n} point behind the leader",
                "blind six: {allowance}, only for a player at least {n} points behind the leader",
                r.blind_six_margin,
                allowance=option_value(w, "blind_six", r.blind_six),
            )
        )
    if r.prize_jacks:
        jacks = w.cards([j for j in ("JD", "JC", "JH") if j in r.prize_jacks])
        items.append(w._("prize jacks: {cards}", cards=jacks))
    if r.deals is not None:
        items.append(
            w.n_(
                "a game of {n} deal; a tie at the top is played off with further deals",
                "a game of {n} deals; a tie at the top is played off with further deals",
                r.deals,
            )
        )
    elif r.floor is not None:
        items.append(
            w.n_(
                "the game ends at {n} point or at {floor}",
                "the game ends at {n} points or at {floor}",
                r.target,
                floor=w.signed(r.floor),
            )
        )
    else:
        items.append(w.n_("the game is played to {n} point", "the game is played to {n} points", r.target))
    if r.tokens is not None:
        items.append(
            w.n_(
                "a tourney won by the first player to collect {n} victory token",
                "a tourney won by the first player to collect {n} victory tokens",
                r.tokens,
            )
        )
    off: list[str] = []
    if not r.jokers:
        off.append(w.s_("jokers"))
    if r.partnership:
        if not r.deuces_high:
            off.append(w.s_("deuces high (twos above the aces)"))
        if not r.suicide:
            off.append(w.s_("suicide (one partner of each team must bid nil)"))
        if "BN" not in r.special_bids:
            off.append(special_bid_name(w, "BN"))
    else:
        if not specials:
            off.append(w.s_("special bids"))
        else:
            off += [special_bid_name(w, b) for b in ("1F", "2F", "B6", "BN", "SM") if b not in specials]
        if not r.prize_jacks:
            off.append(w.s_("prize jacks"))
        if r.tokens is None:
            off.append(w.s_("victory tokens"))
    blocks: list[Block] = [_p(_sentences(*origin))]
    if cutthroat:
        blocks.append(_p(_sentences(*cutthroat)))
    blocks += [
        _p(w._("The variant on this page, as its options set it:")),
        Bullets(tuple(items)),
    ]
    if off:
        blocks.append(_p(w._("Off in this variant: {list}.", list=_join(w, [(x,) for x in off]))))
    if r.tokens is not None:
        blocks += official_notes(w)
    if r.partnership:
        blocks += computer_levels(w)
    return blocks


def computer_levels(w: Writer) -> list[Block]:
    """What each computer level does (the partnership source page has such a section)."""
    return [
        Subheading("computer-players", w.s_("The computer players")),
        _p(
            w._(
                "A computer player sees only what its seat may see: its own hand, the bids, the cards played and the "
                "score. It chooses among the legal actions the engine offers, like a person."
            )
        ),
        Bullets(
            (
                w._("easy bids its aces and kings and plays its lowest legal card;"),
                w._(
                    "normal estimates its tricks from high cards, suit lengths and spades, plays for its team's contract, "
                    "covers its partner's nil and avoids bags when they start to cost;"
                ),
                w._(
                    "hard bids and plays after searching many deals that agree with what it has seen, the bids and the "
                    "cards played included."
                ),
            )
        ),
    ]


def official_notes(w: Writer) -> list[Block]:
    """What the official Cutthroat rules add around the game: settings, larger tables, bidding advice."""
    jc, jd, jh = Card.parse("JC"), Card.parse("JD"), Card.parse("JH")
    return [
        Subheading("suggested", w.s_("Suggested settings")),
        _p(w._("The official rules suggest four settings; each is a profile here:")),
        Bullets(
            (
                w._(
                    "300 points, a limit of 5 bags, one blind six, a prize of 10 for {jc}, 3 victory tokens ({profile});",
                    jc=jc,
                    profile="cutthroat-300-5bags",
                ),
                w._(
                    "300 points, 10 points off per bag, one blind six, a prize of 10 for {jc}, 3 victory tokens "
                    "({profile});",
                    jc=jc,
                    profile="cutthroat-300-perbag",
                ),
                w._(
                    "500 points, a limit of 10 bags, blind six without limit, three prize jacks ({jd}, {jc}, {jh}), 5 "
                    "victory tokens ({profile});",
                    jd=jd,
                    jc=jc,
                    jh=jh,
                    profile="cutthroat-500-3jacks",
                ),
                w._(
                    "500 points, a limit of 10 bags, one blind six, two prize jacks worth 10 each ({jd}, {jc}), 5 victory "
                    "tokens: the official rules themselves ({profile}).",
                    jd=jd,
                    jc=jc,
                    profile="cutthroat-official",
                ),
            )
        ),
        Subheading("more-players", w.s_("Four and five players")),
        Bullets(
            (
                w._(
                    "four players: {card} stays in the deck and everyone gets 13 cards ({profile});",
                    card=Card.parse("2C"),
                    profile="cutthroat-4p",
                ),
                w._(
                    "five players: {cards} are taken out and everyone gets 10 cards ({profile});",
                    cards=w.cards(["2C", "2D"]),
                    profile="cutthroat-5p",
                ),
                w._(
                    "five players with two jokers: the 52 cards and two jokers; the dealer gets 10 cards and does not play "
                    "to the first trick, everyone else 11; the holder of {card} leads it ({profile});",
                    card=Card.parse("2C"),
                    profile="cutthroat-5p-2jokers",
                ),
                w._(
                    "five players with three jokers: the 52 cards and three jokers, 11 cards each; the holder of {card} "
                    "leads it ({profile}).",
                    card=Card.parse("2C"),
                    profile="cutthroat-5p-3jokers",
                ),
            )
        ),
        Subheading("bidding-advice", w.s_("Bidding advice")),
        _p(
            _sentences(
                w._("Count your aces and kings first: they are usually safe tricks to bid."),
                w._(
                    "Queens are harder: whether one wins depends on how many cards of its suit you hold and on the order "
                    "of play."
                ),
                w._(
                    "With {card} and six or more diamonds, for example, another player will probably run out of diamonds "
                    "and trump your queen.",
                    card=Card.parse("QD"),
                ),
            )
        ),
    ]


def spades_trick_example(w: Writer, r: SpadesRules) -> list[Block]:
    e = ex.trick_example(r)
    blocks: list[Block] = []
    intro = w._(
        "A real deal, played through the engine when this page was made. Players are named A, B, C … in "
        "the order they play to the trick."
    )
    blocks.append(_p(intro))
    if e.opening:
        lead_letter, lead_card = e.opening[0]
        blocks.append(
            _p(
                w._(
                    "In the first trick {who} leads {card}, as the rules require; {winner} wins it with {ace} and leads next.",
                    who=lead_letter,
                    card=Card.parse(lead_card),
                    winner=e.opening_winner or "",
                    ace=Card.parse(next(card for who, card in e.opening if who == e.opening_winner)),
                )
            )
        )
    if e.leader_spades and not e.broken_before:
        blocks.append(_p(w._("Spades are not broken yet, so A may not lead {cards}.", cards=w.cards(e.leader_spades))))
    rows = []
    for play in e.plays:
        if play.letter == "A":
            why = w._("leads {card}", card=Card.parse(play.card))
        elif play.letter == "B":
            why = w._("has no hearts: trumps with {card}", card=Card.parse(play.card))
        elif play.letter == "C":
            why = w._(
                "holds {kh} and {qs}: must follow hearts with {kh}; the engine refuses {qs}",
                kh=Card.parse(play.card),
                qs=Card.parse(e.refused_card),
            )
        else:
            why = w._("follows hearts with {card}", card=Card.parse(play.card))
        rows.append(((play.letter,), (w.card(play.card),), why, (w.num(len(play.legal)),)))
    blocks.append(
        Table(
            caption=w._("The trick, card by card."),
            header=(w.s_("player"), w.s_("card"), w.s_("why"), w.s_("legal cards")),
            rows=tuple(rows),
            numeric=(False, False, False, True),
        )
    )
    result = [w._("{who} wins the trick with a spade and leads next.", who=e.winner)]
    if e.broken_after and not e.broken_before:
        result.append(w._("Spades are now broken."))
    if e.next_spade_lead:
        result.append(
            w._("{who} may now lead a spade, for example {card}.", who=e.winner, card=Card.parse(e.next_spade_lead))
        )
    blocks.append(_p(_sentences(*result)))
    return blocks


def _bids_text(w: Writer, bids: Sequence[object]) -> Runs:
    return (" + ".join(bid_label(w, b) for b in bids),)


def _tricks_text(w: Writer, tricks: Sequence[int]) -> Runs:
    return (" + ".join(w.t.number(t) for t in tricks),)


def spades_scoring_example(w: Writer, r: SpadesRules) -> list[Block]:
    e = ex.scoring_example(r)
    side = w.s_("team") if r.partnership else w.s_("player")
    header = (
        side,
        w.s_("bid"),
        w.s_("tricks won"),
        w.s_("points for the bid"),
        w.s_("bags added"),
        w.s_("bag penalty"),
        w.s_("change"),
        w.s_("bags after"),
    )
    numeric = (False, True, True, True, True, True, True, True)

    scale = r.point_scale

    def row(x: ex.ScoreRow) -> tuple[Runs, ...]:
        return (
            (x.side,),
            _bids_text(w, x.bids),
            _tricks_text(w, x.tricks),
            (w.points(x.contract, scale),),
            (w.num(x.bags_added),),
            (w.points(x.penalty, scale),),
            (Strong(w.points(x.change, scale).text),),
            (w.num(x.bags_after),),
        )

    total = sum(sum(x.tricks) for x in e.rows)
    blocks: list[Block] = [
        _p(
            w.n_(
                "One hand of {n} trick, scored by the engine with this profile's rules; every side starts with no bags.",
                "One hand of {n} tricks, scored by the engine with this profile's rules; every side starts with no bags.",
                total,
            )
        ),
        Table(caption=w._("Scoring one hand."), header=header, rows=tuple(row(x) for x in e.rows), numeric=numeric),
    ]
    v = e.variant
    if v is not None:
        blocks.append(
            _p(
                w.n_(
                    "The same hand if {who} already had {n} bag: with the new ones the count is {count}, the penalty is "
                    "{penalty}, the count goes on from {bags}, and the change for the hand is {change}.",
                    "The same hand if {who} already had {n} bags: with the new ones the count is {count}, the penalty is "
                    "{penalty}, the count goes on from {bags}, and the change for the hand is {change}.",
                    v.bags_before,
                    who=v.side,
                    count=v.bags_before + v.bags_added,
                    penalty=w.signed(v.penalty),
                    bags=v.bags_after,
                    change=(Strong(w.t.signed(v.change)),),
                )
            )
        )
    elif r.bag_rule == "per_hand":
        blocks.append(
            _p(
                w._(
                    "Under this profile's bag rule each bag costs 10 points in its own hand, so nobody "
                    "carries bags into the next hand."
                )
            )
        )
    j = e.jack_row
    if j is not None:
        same = j.bags_added == e.rows[0].bags_added
        blocks.append(
            _p(
                w._(
                    "If the tricks {who} won had also held {cards}, the prizes would add {prizes} and the change would be "
                    "{change}; the bags are the same ones as above.",
                    who=j.side,
                    cards=w.cards(e.jacks),
                    prizes=w.signed(j.prizes),
                    change=(Strong(w.t.signed(j.change)),),
                )
                if same
                else w._(
                    "If the tricks {who} won had also held {cards}, the prizes would add {prizes}, {card} would take one of "
                    "the same bags away and the change would be {change}.",
                    who=j.side,
                    cards=w.cards(e.jacks),
                    prizes=w.signed(j.prizes),
                    card=Card.parse("JH"),
                    change=(Strong(w.t.signed(j.change)),),
                )
            )
        )
    return blocks


def spades_faq(w: Writer, r: SpadesRules) -> list[Question]:
    made, failed = score_bid(0, 0).points, score_bid(0, 1).points
    q: list[Question] = []
    if r.min_bid == 0:
        q.append(
            Question(
                w.s_("Is nil a pass?"),
                w._(
                    "No. Nil is a bid of 0 tricks: {made} if you win none, {failed} if you win any. Nobody can pass a bid.",
                    made=w.signed(made),
                    failed=w.signed(failed),
                ),
            )
        )
    if r.lead_spades == "when_broken":
        q.append(
            Question(
                w.s_("Can I lead spades when I only hold spades?"),
                w._(
                    "Yes. With only spades in your hand you may lead one even before spades are broken; that lead does not "
                    "break them by itself."
                ),
            )
        )
    if r.must_beat:
        q.append(
            Question(
                w.s_("Must I trump when I cannot follow suit?"),
                w._(
                    "Yes, if you hold a spade, and with a spade higher than every spade already in the trick when you have "
                    "one. Following suit, you must beat the highest card of the suit when you can."
                ),
            )
        )
    else:
        q.append(
            Question(
                w.s_("Must I trump when I cannot follow suit?"),
                w._(
                    "No. Without the suit led you may play any card, a spade or not; nor must you beat the cards played."
                ),
            )
        )
    q += [
        Question(w.s_("Must the bids add up to the number of tricks?"), w._("No. Any total is allowed.")),
        Question(
            w.s_("What if I play a card that is not allowed?"),
            w._("It is refused with the reason, nothing changes and you choose again. It costs no points."),
        ),
    ]
    if r.partnership:
        q.append(
            Question(
                w.s_("Do my partner's tricks count for our contract?"),
                w._("Yes. A team's tricks count together for its contract, even those of a partner whose nil failed."),
            )
        )
    elif r.deals is None:
        q.append(
            Question(
                w.s_("What happens when the top scores are tied?"),
                w._(
                    "Play more complete hands, all together, until one player alone has the highest total at the target "
                    "or above."
                ),
            )
        )
    return q


# --- Run Fast --------------------------------------------------------------------------------
def runfast_sections(w: Writer, r: Any) -> list[SectionSpec]:
    return [
        ("cards", w.s_("Players and cards"), runfast_cards(w, r)),
        ("start", w.s_("The first play"), runfast_start(w, r)),
        ("combinations", w.s_("Combinations"), runfast_combinations(w)),
        ("bombs", w.s_("Bombs"), runfast_bombs(w, r)),
        ("play", w.s_("Beating and passing"), runfast_play(w, r)),
        (
            "settlement",
            w.s_("Going out and settlement"),
            [*runfast_settlement(w, r), Subheading("bomb-bonus", w.s_("Bomb bonus")), *runfast_bonus(w)],
        ),
        ("history", w.s_("History and the chosen variant"), runfast_history(w, r)),
        ("example", w.s_("Worked example"), runfast_examples(w, r)),
    ]


def runfast_cards(w: Writer, r: Any) -> list[Block]:
    if r.deal_size == 15:
        deck = w.n_(
            "Use {n} card: a 54-card deck without both jokers, without {removed} and without {twos}; "
            "{ace} is the only ace and {two} the only two.",
            "Use {n} cards: a 54-card deck without both jokers, without {removed} and without {twos}; "
            "{ace} is the only ace and {two} the only two.",
            len(r.deck),
            removed=w.cards(["AH", "AD", "AC", "KS"]),
            twos=w.cards(["2H", "2D", "2C"]),
            ace=Card.parse("AS"),
            two=Card.parse("2S"),
        )
    else:
        deck = w.n_(
            "Use {n} card: a 54-card deck without both jokers, without {ah} and without {twos}; {two} is the only two.",
            "Use {n} cards: a 54-card deck without both jokers, without {ah} and without {twos}; {two} is "
            "the only two.",
            len(r.deck),
            ah=Card.parse("AH"),
            twos=w.cards(["2H", "2D", "2C"]),
            two=Card.parse("2S"),
        )
    if r.deals == 1:
        deal = w.n_(
            "Deal {n} card to each player; there is no kitty. One deal is one game.",
            "Deal {n} cards to each player; there is no kitty. One deal is one game.",
            r.deal_size,
        )
    else:
        deal = w.n_(
            "Deal {hand} cards to each player; there is no kitty. A game is a match of {n} deal.",
            "Deal {hand} cards to each player; there is no kitty. A game is a match of {n} deals.",
            r.deals,
            hand=r.deal_size,
        )
    return [
        _p(_sentences(w._("Three players, each for themself."), deck, deal)),
        _p(
            _sentences(
                w._(
                    "Ranks from high to low: {ranks}. Suits never matter.",
                    ranks="2, A, K, Q, J, 10, 9, 8, 7, 6, 5, 4, 3",
                ),
                w._("Turns go counter-clockwise."),
            )
        ),
    ]


def runfast_start(w: Writer, r: Any) -> list[Block]:
    card = Card.parse(r.first_lead)
    return [
        _p(
            w._(
                "The holder of {card} makes the first play, and it must contain {card}. It may be any "
                "combination with that card.",
                card=card,
            )
        )
    ]


def runfast_combinations(w: Writer) -> list[Block]:
    return [
        _p(w._("Ordinary combinations:")),
        Bullets(
            (
                w._("a single card;"),
                w._("a pair;"),
                w._("a triple, bare: nothing may be attached to it;"),
                w._("a straight: 5 or more consecutive ranks, from 3 up to A (the 2 is never in a sequence);"),
                w._("a pair run: 2 or more consecutive pairs, such as 3-3-4-4, with the same limits as straights."),
            )
        ),
        _p(w._("Not allowed: a triple with attachments, airplanes, four with attachments or any other shape.")),
    ]


def runfast_bombs(w: Writer, r: Any) -> list[Block]:
    if r.deal_size == 15:
        aces = w._(
            "no ace bomb and no four kings: with {n} cards only {ace} of the aces and three kings are dealt;",
            n=len(r.deck),
            ace=Card.parse("AS"),
        )
    else:
        aces = w._(
            "the three aces {aces} together: a bomb above every four of a kind, never an ordinary triple;",
            aces=w.cards(["AS", "AD", "AC"]),
        )
    return [
        Bullets(
            (
                w._("four of a kind, ranked by rank: four 3s are the lowest;"),
                aces,
                w._(
                    "the celestial bomb: four 3s played as the opening play of the deal. Nothing beats it. Four 3s "
                    "played later are the lowest ordinary bomb."
                ),
            )
        ),
        _p(
            w._(
                "A play beats the current one if it has the same shape, the same number of cards and a higher rank "
                "(a straight or pair run is ranked by its top card); a bomb beats any ordinary play, and a higher "
                "bomb beats a lower one."
            )
        ),
    ]


def runfast_play(w: Writer, r: Any) -> list[Block]:
    one_card: list[Block] = []
    if r.one_card_rule:
        one_card = [
            Subheading("one-card", w.s_("One card left")),
            _p(
                _sentences(
                    w._(
                        "When the next player in turn holds a single card, a player who plays a single card, leading or "
                        "answering, must play their highest card: a card of the highest rank in their hand."
                    ),
                    w._(
                        "Pairs, triples, straights, pair runs and bombs are not affected, and a player with no single "
                        "that beats the play may still pass when nothing else beats it."
                    ),
                )
            ),
        ]
    return [*runfast_play_core(w), *one_card]


def runfast_play_core(w: Writer) -> list[Block]:
    return [
        _p(
            _sentences(
                w._("The leader plays any valid combination and cannot pass."),
                w._(
                    "Then each player in turn must beat the last play if they can, with a bomb if that is the only way. "
                    "Passing is allowed only when no play beats it."
                ),
                w._(
                    "Any play that beats is allowed: there is no duty to play the smallest, and a bomb is always "
                    "allowed as an answer to an ordinary play."
                ),
            )
        ),
        _p(
            _sentences(
                w._("Bombs may be split: their cards may be played in other shapes."),
                w._(
                    "When both other players have passed in a row, the player who made the last play leads again, "
                    "freely."
                ),
                w._("The first player to empty their hand wins, and the deal ends at once."),
            )
        ),
    ]


def runfast_settlement(w: Writer, r: Any) -> list[Block]:
    match: list[Block] = []
    if r.deals > 1:
        match = [
            _p(
                _sentences(
                    w.n_(
                        "In a match of {n} deal each deal is settled as above and the results are added up.",
                        "In a match of {n} deals each deal is settled as above and the results are added up.",
                        r.deals,
                    ),
                    w._(
                        "Every deal is shuffled anew and the holder of {card} makes its first play.",
                        card=Card.parse(r.first_lead),
                    ),
                    w._(
                        "After the last deal the highest total wins; a tie goes to the tied player who went out most "
                        "recently, or, if none of them ever went out, to the tied player seated first."
                    ),
                )
            )
        ]
    return [*runfast_settlement_core(w), *match]


def runfast_settlement_core(w: Writer) -> list[Block]:
    return [
        _p(w._("When a player goes out, each opponent pays the winner:")),
        Bullets(
            (
                w.n_(
                    "{n} point per card left in hand, doubled (×{factor}) if that opponent never played a card in the "
                    "deal (a spring);",
                    "{n} points per card left in hand, doubled (×{factor}) if that opponent never played a card in the "
                    "deal (a spring);",
                    PER_CARD,
                    factor=SPRING_FACTOR,
                ),
                w._(
                    "{points} more if they still hold {card};",
                    points=w.signed(TWO_OF_SPADES_PENALTY),
                    card=Card.parse("2S"),
                ),
                w._(
                    "{points} more for each bomb still in their hand. Only the points per card are doubled.",
                    points=w.signed(BOMB_HELD_PENALTY),
                ),
            )
        ),
        _p(w._("The settlement always sums to zero.")),
    ]


def runfast_bonus(w: Writer) -> list[Block]:
    each = BOMB_BONUS // 2
    return [
        _p(
            _sentences(
                w._(
                    "A bomb played on top of another player's play earns its player {bonus}, {each} from each opponent, "
                    "if no higher bomb beats it before that round ends.",
                    bonus=w.signed(BOMB_BONUS),
                    each=each,
                ),
                w._(
                    "A round ends after two passes in a row or when the deal ends; a higher bomb takes the place of the "
                    "one it beats, which earns nothing."
                ),
                w._(
                    "Led bombs and the celestial bomb earn no bonus. Bonuses are part of the settlement, so even a "
                    "winner's total can be negative."
                ),
            )
        ),
    ]


def runfast_history(w: Writer, r: Any) -> list[Block]:
    """Where Run Fast comes from (fixed text), then the variant this profile plays (from its options)."""
    origin = _sentences(
        w._(
            "Run Fast is the English name of Pao De Kuai (跑得快, “run fast”), a Chinese shedding game related to "
            "Dou Dizhu: whoever gets rid of their cards first wins."
        ),
        w._("Unlike Dou Dizhu it has no landlord and no teams: the three players play each for themself."),
        w._(
            "Its rules differ from table to table: the deck, the opening card (often {card}) and the shapes that "
            "may be played all vary.",
            card=Card.parse("3S"),
        ),
    )
    extra: list[Runs] = []
    if r.deal_size == 15:
        extra.append(
            w._(
                "15 cards each: our choice of the cards left out is {cards}, so the only ace is {ace} (apps differ)",
                cards=w.cards(["AC", "AD", "KS"]),
                ace=Card.parse("AS"),
            )
        )
    if r.one_card_rule:
        extra.append(
            w._("the one-card rule: a single played while the next player holds one card must be the player's highest")
        )
    if r.deals > 1:
        extra.append(
            w.n_(
                "a match of {n} deal, decided by the totals; ties go to the latest player out",
                "a match of {n} deals, decided by the totals; ties go to the latest player out",
                r.deals,
            )
        )
    items = (
        w.n_(
            "{n} card, {hand} to each player, with no kitty",
            "{n} cards, {hand} to each player, with no kitty",
            len(r.deck),
            hand=r.deal_size,
        ),
        w._("{card} opens: the first play must contain it", card=Card.parse(r.first_lead)),
        w._("a player must beat the last play if able, with a bomb if that is the only way"),
        w._("no attachments and no airplanes: a triple is always bare"),
        (
            w._("four 3s opening the deal are the celestial bomb")
            if r.deal_size == 15
            else w._("the three aces are a bomb, and four 3s opening the deal are the celestial bomb")
        ),
        w._("a bomb that beats another player's play and stands earns a bonus of {bonus}", bonus=w.signed(BOMB_BONUS)),
        w._("a spring doubles the points per card of an opponent who never played"),
        *extra,
    )
    return [_p(origin), _p(w._("The variant on this page, as its options set it:")), Bullets(items)]


def runfast_examples(w: Writer, r: Any) -> list[Block]:
    s = ex.settlement_example(r.deal_size)
    labels = "ABC"
    header = (
        w.s_("player"),
        w.s_("cards left"),
        w.s_("never played"),
        w.s_("points for cards"),
        w.s_("holds 2♠"),
        w.s_("bombs held"),
        w.s_("pays"),
        w.s_("change"),
    )
    rows: list[tuple[Runs, ...]] = []
    for seat in range(3):
        if seat == 1:
            rows.append(
                (
                    (labels[seat],),
                    (w.num(0),),
                    ("—",),
                    ("—",),
                    ("—",),
                    ("—",),
                    ("—",),
                    (Strong(w.t.signed(s.change[seat])),),
                )
            )
            continue
        rows.append(
            (
                (labels[seat],),
                (w.num(s.cards_left[seat]),),
                (w.s_("yes") if s.spring[seat] else w.s_("no"),),
                (w.num(s.card_points[seat]),),
                (w.s_("yes") if s.two_of_spades[seat] else w.s_("no"),),
                (w.num(s.bombs[seat]),),
                (w.num(s.payments[seat]),),
                (Strong(w.t.signed(s.change[seat])),),
            )
        )
    b = ex.bomb_example(r.options_json())
    bomb_text: list[Runs] = [
        w._(
            "A real deal through the engine: A opens with {lead}. B answers with {bomb}, a bomb.",
            lead=w.cards(b.lead),
            bomb=w.cards(b.bomb),
        ),
    ]
    if b.smaller_answer:
        bomb_text.append(
            w._(
                "B could also have answered with a single such as {card}: a bomb is allowed, never required.",
                card=Card.parse(b.smaller_answer),
            )
        )
    bomb_text.append(
        w._(
            "C and then A cannot beat the bomb and pass. The round ends with the bomb standing: "
            "A {a}, B {b}, C {c}. B leads again.",
            a=w.signed(b.bonus[0]),
            b=w.signed(b.bonus[1]),
            c=w.signed(b.bonus[2]),
        )
    )
    return [
        Subheading("example-settlement", w.s_("Settlement")),
        _p(
            w._(
                "B goes out. A has played before and holds {a} cards, four 9s among them. C never played "
                "and holds all {c} cards, {two} among them. Computed by the engine's settlement:",
                a=s.cards_left[0],
                c=s.cards_left[2],
                two=Card.parse("2S"),
            )
        ),
        Table(
            caption=w._("Who pays what when B goes out."),
            header=header,
            rows=tuple(rows),
            numeric=(False, True, False, True, False, True, True, True),
        ),
        Subheading("example-bomb-bonus", w.s_("Bomb bonus")),
        _p(_sentences(*bomb_text)),
    ]


def runfast_faq(w: Writer, r: Any) -> list[Question]:
    extra: list[Question] = []
    if r.one_card_rule:
        extra.append(
            Question(
                w.s_("The next player has one card left: must I play my highest card?"),
                w._(
                    "Only if you play a single card: then it must be of the highest rank you hold. A pair, a straight or "
                    "any other shape is played as usual."
                ),
            )
        )
    return [*runfast_faq_core(w), *extra]


def runfast_faq_core(w: Writer) -> list[Question]:
    return [
        Question(
            w.s_("Does a pass end my turn for the round?"),
            w._(
                "No. A pass only skips this turn. If the next player beats the play, the turn comes back to you and you "
                "must beat the new play if you can. The round ends only after two passes in a row."
            ),
        ),
        Question(
            w.s_("Can I pass when I could beat the play?"),
            w._("No. You may pass only when nothing in your hand beats it, bombs included."),
        ),
        Question(
            w.s_("Must I answer with my smallest play?"),
            w._("No. Any play that beats the current one is allowed, a bomb included."),
        ),
        Question(
            w.s_("Can I break up a bomb?"),
            w._(
                "Yes. The cards of a four of a kind or of the three aces may be played in other shapes; they are then "
                "no longer a bomb in your hand."
            ),
        ),
        Question(w.s_("Are three aces a triple?"), w._("No. The three aces together are always a bomb.")),
    ]
