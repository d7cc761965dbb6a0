"""The rules page as terminal text: numbered sections, wrapped paragraphs, aligned tables."""

from __future__ import annotations

import textwrap
import unicodedata

from tapete.rulebook.model import Bullets, Num, Page, Paragraph, Runs, Subheading, Table, runs_text

WIDTH = 78


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _wrap(text: str, indent: str = "", first: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=first or indent, subsequent_indent=indent) or [first.rstrip()]


def _table(table: Table) -> list[str]:
    cells = [list(table.header), *[[runs_text(c) for c in row] for row in table.rows]]
    widths = [max(_width(row[i]) for row in cells) for i in range(len(table.header))]
    numeric = table.numeric or (False,) * len(widths)
    lines = [runs_text(table.caption)]
    for n, row in enumerate(cells):
        parts = []
        for i, cell in enumerate(row):
            pad = " " * (widths[i] - _width(cell))
            parts.append(pad + cell if numeric[i] and n else cell + pad)
        lines.append("  " + "  ".join(parts).rstrip())
        if n == 0:
            lines.append("  " + "  ".join("-" * x for x in widths))
    return lines


def _runs(runs: Runs) -> str:
    return runs_text(runs)


def render_text(page: Page) -> str:
    """The whole page as plain text for a terminal.

    >>> from tapete.rulebook.build import build_page
    >>> print(render_text(build_page("cutthroat", "en")).splitlines()[0])
    Cutthroat Spades
    """
    out = [page.title, "=" * _width(page.title), ""]
    out += _wrap(_runs(page.summary))
    if page.option_notes:
        out += ["", page.labels["options"] + ":"]
        for note in page.option_notes:
            out += _wrap(_runs(note), "    ", "  * ")
    for section in page.sections:
        head = f"{section.number:02d} / {section.title}"
        out += ["", head, "-" * _width(head)]
        for block in section.blocks:
            if isinstance(block, Subheading):
                out += [block.title, "~" * _width(block.title)]
                continue
            if isinstance(block, Paragraph):
                out += _wrap(_runs(block.runs))
            elif isinstance(block, Bullets):
                for item in block.items:
                    out += _wrap(_runs(item), "    ", "  * ")
            else:
                out += _table(block)
            out.append("")
        while out and out[-1] == "":
            out.pop()
    out += ["", page.labels["faq"], "-" * _width(page.labels["faq"])]
    for q in page.faq:
        out += _wrap(q.question, "", "? ")
        out += _wrap(_runs(q.answer), "  ", "  ")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


__all__ = ["Num", "render_text"]
