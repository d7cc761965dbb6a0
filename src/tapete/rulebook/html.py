"""The rules page as one self-contained HTML document (no external assets).

Semantic sections with stable ids for links, a contents list, a language switcher,
tables in horizontally scrolling regions for phones, print CSS, and cards drawn as text
with the suit symbol (never by colour alone) and their spoken name for screen readers.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from tapete.i18n import LANGUAGES
from tapete.rulebook.model import Bullets, CardRef, Num, Page, Paragraph, Runs, Section, Strong, Subheading, Table

LANGUAGE_NAMES = {"es": "Español", "ru": "Русский", "en": "English"}

CSS = """
:root { color-scheme: light; --ink: #1d1d1f; --muted: #5a5a60; --line: #d4d4d8; --red: #b3001b; --bg: #fffdf8; }
* { box-sizing: border-box; }
body { margin: 0; font: 1rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink);
       background: var(--bg); }
header, main, footer { max-width: 46rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1rem; }
h1 { font-size: 1.7rem; line-height: 1.2; margin: .5rem 0; }
h2 { font-size: 1.25rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h2 .num { color: var(--muted); font-variant-numeric: tabular-nums; margin-right: .4rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
h2 a.self, h3 a.self { color: inherit; text-decoration: none; }
h2 a.self:hover::after, h2 a.self:focus::after, h3 a.self:hover::after, h3 a.self:focus::after {
  content: " #"; color: var(--muted); }
nav.languages ul, nav.toc ol { padding: 0; margin: 0; }
nav.languages li { display: inline; margin-right: .8rem; list-style: none; }
nav.languages [aria-current] { font-weight: bold; text-decoration: none; color: var(--ink); }
nav.toc ol { padding-left: 1.6rem; }
nav.toc ol ol { list-style: lower-alpha; padding-left: 1.2rem; }
.options { border-left: 4px solid var(--ink); padding: .3rem .8rem; background: #f4f1e8; }
.card { white-space: nowrap; font-weight: 600; }
.card.s-H, .card.s-D { color: var(--red); }
.table-scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; margin: .8rem 0; max-width: 100%; }
table { border-collapse: collapse; min-width: 100%; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-style: italic; padding-bottom: .3rem; color: var(--muted); }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; vertical-align: top; text-align: left; }
th { background: #f0ede4; white-space: nowrap; }
td.n { text-align: right; white-space: nowrap; }
p.scroll-hint { font-size: .85rem; color: var(--muted); }
dl.faq dt { font-weight: 600; margin-top: .8rem; }
dl.faq dd { margin: .2rem 0 0 1rem; }
footer { margin-top: 2rem; padding-bottom: 2rem; font-size: .85rem; color: var(--muted); }
a { color: #0b4fa8; }
@media (min-width: 50rem) { p.scroll-hint { display: none; } }
@media print {
  body { background: #fff; font-size: 11pt; }
  nav, p.scroll-hint, footer { display: none; }
  header, main { max-width: none; padding: 0; }
  .table-scroll { overflow: visible; }
  section { break-inside: avoid-page; }
  h2, h3 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  .card.s-H, .card.s-D { color: #000; }
}
"""


def _runs(runs: Runs) -> str:
    out: list[str] = []
    for run in runs:
        if isinstance(run, str):
            out.append(escape(run))
        elif isinstance(run, CardRef):
            out.append(
                f'<abbr class="card s-{run.suit}" title="{escape(run.name)}" data-card="{run.code}">'
                f"{escape(run.symbol)}</abbr>"
            )
        elif isinstance(run, Strong):
            out.append(f"<strong>{escape(run.text)}</strong>")
        elif isinstance(run, Num):
            out.append(f'<span class="num" data-value="{run.value}">{escape(run.text)}</span>')
    return "".join(out)


def _table(table: Table, hint: str) -> str:
    numeric = table.numeric or (False,) * len(table.header)
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in table.header)
    rows = []
    for row in table.rows:
        cells = []
        for i, cell in enumerate(row):
            if i == 0:
                cells.append(f'<th scope="row">{_runs(cell)}</th>')
            else:
                cls = ' class="n"' if numeric[i] else ""
                cells.append(f"<td{cls}>{_runs(cell)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = _runs(table.caption)
    return (
        f'<div class="table-scroll" role="region" tabindex="0" aria-label="{escape(hint)}">'
        f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def _toc_item(section: Section) -> str:
    """A contents entry, with the section's subheadings (if any) as a nested list."""
    subs = "".join(
        f'<li><a href="#{b.anchor}">{escape(b.title)}</a></li>' for b in section.blocks if isinstance(b, Subheading)
    )
    nested = f"<ol>{subs}</ol>" if subs else ""
    return f'<li><a href="#{section.anchor}">{escape(section.title)}</a>{nested}</li>'


def render_html(page: Page, link: Callable[[str], str] | None = None, index_url: str | None = "/rules") -> str:
    """The page as an HTML document; ``link(lang)`` is the URL of the page in another language.

    >>> from tapete.rulebook.build import build_page
    >>> html = render_html(build_page("cutthroat", "ru"))
    >>> html.startswith("<!doctype html>") and '<html lang="ru">' in html and 'id="scoring"' in html
    True
    """
    link = link or (lambda lang: f"?lang={lang}")
    lab = page.labels
    langs = []
    for lang in LANGUAGES:
        current = ' aria-current="page"' if lang == page.lang else ""
        langs.append(
            f'<li><a href="{escape(link(lang))}" hreflang="{lang}" lang="{lang}"{current}>'
            f"{escape(LANGUAGE_NAMES[lang])}</a></li>"
        )
    toc = "".join(_toc_item(s) for s in page.sections) + f'<li><a href="#faq">{escape(lab["faq"])}</a></li>'
    parts: list[str] = [
        "<!doctype html>",
        f'<html lang="{page.lang}">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(page.title)} — {escape(lab['rules_of'])} — tapete</title>",
        *[
            f'<link rel="alternate" hreflang="{lang}" href="{escape(link(lang))}">'
            for lang in LANGUAGES
            if lang != page.lang
        ],
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<header>",
        f'<nav class="languages" aria-label="{escape(lab["language"])}"><ul>{"".join(langs)}</ul></nav>',
        f'<h1 id="top">{escape(page.title)}</h1>',
        f'<p class="summary">{_runs(page.summary)}</p>',
    ]
    if page.option_notes:
        notes = "".join(f"<li>{_runs(n)}</li>" for n in page.option_notes)
        parts.append(
            f'<aside class="options" aria-labelledby="options-title"><h2 id="options-title">'
            f"{escape(lab['options'])}</h2><ul>{notes}</ul></aside>"
        )
    parts += [
        f'<nav class="toc" aria-labelledby="toc-title"><h2 id="toc-title">{escape(lab["contents"])}</h2>'
        f"<ol>{toc}</ol></nav>",
        "</header>",
        "<main>",
        f'<p class="scroll-hint">{escape(lab["scroll"])}</p>',
    ]
    for s in page.sections:
        parts.append(f'<section id="{s.anchor}" aria-labelledby="{s.anchor}-title">')
        parts.append(
            f'<h2 id="{s.anchor}-title"><a class="self" href="#{s.anchor}">'
            f'<span class="num">{s.number:02d} /</span> {escape(s.title)}</a></h2>'
        )
        for block in s.blocks:
            if isinstance(block, Subheading):
                parts.append(
                    f'<h3 id="{block.anchor}"><a class="self" href="#{block.anchor}">{escape(block.title)}</a></h3>'
                )
            elif isinstance(block, Paragraph):
                parts.append(f"<p>{_runs(block.runs)}</p>")
            elif isinstance(block, Bullets):
                parts.append("<ul>" + "".join(f"<li>{_runs(i)}</li>" for i in block.items) + "</ul>")
            else:
                parts.append(_table(block, lab["scroll"]))
        parts.append("</section>")
    parts.append('<section id="faq" aria-labelledby="faq-title">')
    parts.append(f'<h2 id="faq-title"><a class="self" href="#faq">{escape(lab["faq"])}</a></h2><dl class="faq">')
    for q in page.faq:
        parts.append(f"<dt>{escape(q.question)}</dt><dd>{_runs(q.answer)}</dd>")
    parts += ["</dl></section>", "</main>"]
    if index_url:
        parts.append(f'<footer><a href="{escape(index_url)}?lang={page.lang}">{escape(lab["index"])}</a></footer>')
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"
