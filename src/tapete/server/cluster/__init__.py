"""Many server nodes on one PostgreSQL and one Redis (``tapete serve --redis …``).

- :mod:`~tapete.server.cluster.ownership`: what the hub asks about table ownership, and
  the single-process answer (every table is this process's; nothing is imported);
- :mod:`~tapete.server.cluster.lease`: leases of tables in PostgreSQL, fenced writes;
- :mod:`~tapete.server.cluster.bus`: the nodes' inboxes on Redis pub/sub, request/reply;
- :mod:`~tapete.server.cluster.remote`: a socket of another node as a table sees it;
- :mod:`~tapete.server.cluster.node`: one node of the cluster (leases, failover, forwarding);
- :mod:`~tapete.server.cluster.botqueue`: bot decisions on a Redis stream, answered by
  ``tapete worker`` processes.

Only ``ownership`` is imported by the server itself; the rest (and ``redis``) only when
the server is started with ``--redis``.
"""
