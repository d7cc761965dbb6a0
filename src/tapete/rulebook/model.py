"""The rules page as data: sections of blocks of inline runs, shared by every renderer.

Text never carries markup: a run is plain text, a card, a number or emphasis, and each
renderer (terminal text, HTML) draws them its own way.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class CardRef:
    """A card mentioned in the text: its canonical name (``AH``), symbol and spoken name."""

    code: str
    symbol: str
    name: str
    suit: str
    """``S H D C`` or ``J`` for a joker (renderers mark the suit by symbol and class)."""


@dataclass(frozen=True)
class Strong:
    """Emphasised text (a key word of a rule, a result)."""

    text: str


@dataclass(frozen=True)
class Num:
    """A number already formatted for the page's language (kept apart for alignment)."""

    text: str
    value: int


Inline = str | CardRef | Strong | Num
Runs = tuple[Inline, ...]


@dataclass(frozen=True)
class Paragraph:
    runs: Runs


@dataclass(frozen=True)
class Bullets:
    items: tuple[Runs, ...]


@dataclass(frozen=True)
class Table:
    """A table with a caption; ``numeric`` marks right-aligned columns."""

    caption: Runs
    header: tuple[str, ...]
    rows: tuple[tuple[Runs, ...], ...]
    numeric: tuple[bool, ...] = ()


@dataclass(frozen=True)
class Subheading:
    """A titled part of a section; ``anchor`` is its stable, language-independent id."""

    anchor: str
    title: str


Block = Paragraph | Bullets | Table | Subheading


@dataclass(frozen=True)
class Section:
    """One numbered section; ``anchor`` is its stable, language-independent id."""

    anchor: str
    number: int
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class Question:
    question: str
    answer: Runs


@dataclass(frozen=True)
class Page:
    """A whole rules page of one profile, with options, in one language."""

    profile: str
    lang: str
    title: str
    summary: Runs
    option_notes: tuple[Runs, ...]
    """Options of this table that differ from the profile (empty: the profile as shipped)."""
    sections: tuple[Section, ...]
    faq: tuple[Question, ...]
    labels: dict[str, str] = field(default_factory=dict)
    """Translated interface words of the page (contents, questions, languages …)."""
    options: dict[str, object] = field(default_factory=dict)
    """The option overrides the page was rendered with."""

    def text(self) -> str:
        """All the page's words in one string (handy for searching in tests)."""
        parts: list[str] = [self.title, runs_text(self.summary)]
        parts += [runs_text(r) for r in self.option_notes]
        for section in self.sections:
            parts.append(section.title)
            for block in section.blocks:
                parts.append(block_text(block))
        for q in self.faq:
            parts += [q.question, runs_text(q.answer)]
        return "\n".join(parts)


def runs_text(runs: Runs) -> str:
    """The runs as plain text (cards as symbols)."""
    out: list[str] = []
    for run in runs:
        if isinstance(run, str):
            out.append(run)
        elif isinstance(run, CardRef):
            out.append(run.symbol)
        else:
            out.append(run.text)
    return "".join(out)


def block_text(block: Block) -> str:
    if isinstance(block, Subheading):
        return block.title
    if isinstance(block, Paragraph):
        return runs_text(block.runs)
    if isinstance(block, Bullets):
        return "\n".join(runs_text(item) for item in block.items)
    lines = [runs_text(block.caption), " | ".join(block.header)]
    lines += [" | ".join(runs_text(cell) for cell in row) for row in block.rows]
    return "\n".join(lines)
