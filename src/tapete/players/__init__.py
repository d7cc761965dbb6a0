"""Players: accounts (guests and named), sessions, the history of finished games, ratings.

The players' data lives in the server's database next to the event log (same engine and
metadata, see :mod:`tapete.players.store`); :mod:`tapete.players.service` is what the
server calls, :mod:`tapete.players.http` the JSON API (``docs/players.md``).
"""
