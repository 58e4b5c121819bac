"""Render deploy/haproxy.cfg for nodes at other addresses than docker-compose's (the cluster test and the load bench
run the same configuration on this machine): the listening address and the nodes' `use-server` and `server` lines are
replaced, everything else is kept as shipped."""

from __future__ import annotations

import re
from pathlib import Path

TEMPLATE = Path(__file__).with_name("haproxy.cfg")


def render(bind: str, nodes: dict[str, str]) -> str:
    """The configuration listening on `bind` (host:port) in front of `nodes` (name -> host:port)."""
    config = TEMPLATE.read_text().replace("bind :8000", f"bind {bind}")
    config = re.sub(r"(?m)^\s*(use-server|server) app\d.*\n", "", config)
    # No Docker DNS here: the nodes are given by address.
    config = re.sub(r"(?ms)^# Docker's DNS.*?^resolvers docker\n.*?\n\n", "", config).replace(" resolvers docker", "")
    rules = "".join(f"    use-server {name} if {{ urlp(node) -m str {name} }}\n" for name in nodes)
    servers = "".join(f"    server {name} {address} check\n" for name, address in nodes.items())
    return config.rstrip() + "\n" + rules + servers
