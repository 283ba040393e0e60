"""Which process runs which live tables on a shared database: leases with fencing
tokens (issue 13, item 4; issue 17).

Tables are grouped into scopes: a platform (``"telegram"``, whose update stream only one
process may read) or a part of one (a Discord shard, ``"discord:3"``: its gateway events
reach one connection). A process claims each scope it hosts in storage
(``Storage.claim_tables``) before it restores that scope's tables, and renews the claim
with a heartbeat while it runs. A second process asking for the same scope is refused
with :class:`TablesHeldElsewhere` (two processes playing one table would deal, move and
settle it twice); ``domino run`` on PostgreSQL then waits as a standby. A claim whose
heartbeat stopped more than ``stale_after`` seconds ago, or whose process is known to be
gone (same host, that process id no longer running, or our own id: a restarted
container) is taken over, and its fencing token grows by one. Every write of a table's
snapshot or money carries the token it was claimed with and is refused in its own
transaction once the token is stale, so a process that stalled past its lease (and
does not know yet) changes nothing; it stops playing that scope's tables at once when
its next write or heartbeat finds out.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass

__all__ = [
    "CLAIM_STALE_SECONDS",
    "HEARTBEAT_SECONDS",
    "STANDBY_SECONDS",
    "OwnerId",
    "TablesHeldElsewhere",
    "new_owner_id",
    "owner_is_gone",
]

CLAIM_STALE_SECONDS = 20.0
"""A claim whose heartbeat is older than this is abandoned (its process died). With the
standby's look every :data:`STANDBY_SECONDS`, a dead process's tables resume elsewhere
within 30 s (issue 17)."""

HEARTBEAT_SECONDS = 5.0
"""How often a running process renews its claims."""

STANDBY_SECONDS = 5.0
"""How often a standby process looks whether a scope it waits for became free."""


@dataclass(frozen=True, slots=True)
class OwnerId:
    """A process's claim id, ``"<host>:<pid>:<token>"`` as stored."""

    host: str
    pid: int
    token: str

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}:{self.token}"

    @classmethod
    def parse(cls, text: str) -> OwnerId | None:
        """An id as :meth:`__str__` wrote it, or None when it is not one."""
        host, _, rest = text.rpartition(":")
        host, _, pid = host.rpartition(":")
        if not host or not pid.isdigit():
            return None
        return cls(host, int(pid), rest)


def new_owner_id(host: str | None = None) -> OwnerId:
    """This process's id: its host name (or ``host``: ``DOMINO_INSTANCE``), process id
    and a random token."""
    return OwnerId(host or socket.gethostname(), os.getpid(), uuid.uuid4().hex[:12])


def owner_is_gone(claim: str, me: OwnerId) -> bool:
    """Whether the process that wrote ``claim`` is known not to run any more: it ran on
    this host and its process id is ours (an earlier life of this process or container)
    or no longer exists. A process on another host is never judged here: only its
    heartbeat's age can tell."""
    other = OwnerId.parse(claim)
    if other is None or other.host != me.host:
        return False
    if other.pid == me.pid:
        return other.token != me.token
    try:
        os.kill(other.pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


class TablesHeldElsewhere(RuntimeError):
    """Another live process runs this platform's tables on this database.

    Attributes:
        platform: the platform refused.
        owner: the other process's claim id (``host:pid:token``).
        seconds_ago: how long ago it last renewed its claim.
        stale_after: seconds after which a silent claim may be taken over.
    """

    def __init__(self, platform: str, owner: str, seconds_ago: float, stale_after: float):
        self.platform = platform
        self.owner = owner
        self.seconds_ago = seconds_ago
        self.stale_after = stale_after
        super().__init__(
            f"another process ({owner}) runs the {platform} tables on this database"
            f" (seen {seconds_ago:.0f} s ago); stop it first, or wait"
            f" {max(0.0, stale_after - seconds_ago):.0f} s if it is gone"
        )
