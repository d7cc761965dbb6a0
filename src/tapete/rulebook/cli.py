"""``tapete rules PROFILE [--lang xx] [--options JSON] [--html]``: print a rules page."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tapete.errors import TapeteError
from tapete.i18n import LANGUAGES, negotiate


def _default_lang() -> str:
    import os

    env = os.environ.get("LANGUAGE") or os.environ.get("LC_ALL") or os.environ.get("LANG") or ""
    return negotiate(env.split(":")[0].split(".")[0].replace("_", "-"))


def cmd_rules(args: argparse.Namespace) -> int:
    """Print the rules page of a profile in the terminal (or as HTML)."""
    from tapete.rulebook import build_page, render_html, render_text

    try:
        options = json.loads(args.options) if args.options else None
        page = build_page(args.profile, args.lang or _default_lang(), options)
    except (TapeteError, json.JSONDecodeError) as exc:
        print(f"tapete rules: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(render_html(page) if args.html else render_text(page))
    return 0


def add_rules_parser(sub: Any) -> None:
    """Register the ``rules`` subcommand on the ``tapete`` parser."""
    p = sub.add_parser("rules", help="print the rules page of a profile (es, ru, en)")
    p.add_argument("profile", help="rule profile (see 'tapete profiles')")
    p.add_argument("--lang", choices=LANGUAGES, help="language (default: from $LANG, else English)")
    p.add_argument("--options", help="JSON object of option overrides, e.g. '{\"target\": 300}'")
    p.add_argument("--html", action="store_true", help="print the page as an HTML document")
    p.set_defaults(func=cmd_rules)
