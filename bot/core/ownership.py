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
gone (the same process space, see :class:`OwnerId`, and that process id no longer
running) is taken over, and its fencing token grows by one. Every write of a table's
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
    "LeaseTimes",
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
class LeaseTimes:
    """The lease's timings, in seconds (settings ``DOMINO_LEASE_HEARTBEAT_SECONDS``,
    ``DOMINO_LEASE_TAKEOVER_SECONDS``, ``DOMINO_STANDBY_SECONDS``).

    Attributes:
        heartbeat: how often a running process renews its leases (and retries a renewal
            the database refused).
        takeover: a lease not renewed for this long is abandoned: a standby takes it
            over, and its holder drops it itself.
        standby: how often a standby looks whether a lease it waits for became free.
    """

    heartbeat: float = HEARTBEAT_SECONDS
    takeover: float = CLAIM_STALE_SECONDS
    standby: float = STANDBY_SECONDS

    def __post_init__(self) -> None:
        if not 0 < self.heartbeat < self.takeover or self.standby <= 0:
            raise ValueError(
                f"lease times must be 0 < heartbeat < takeover and standby > 0, got {self}"
            )


@dataclass(frozen=True, slots=True)
class OwnerId:
    """A process's claim id, ``"<host>:<space>:<pid>:<token>"`` as stored.

    ``host`` is ``DOMINO_INSTANCE`` or the host name, ``space`` names the process-id
    namespace (the kernel's boot id and the PID namespace: two containers, or two
    machines, never share one even with the same host name and PID 1), ``token`` is
    random per process. Two live processes never have the same id.
    """

    host: str
    pid: int
    token: str
    space: str = ""

    def __str__(self) -> str:
        return f"{self.host}:{self.space}:{self.pid}:{self.token}"

    @classmethod
    def parse(cls, text: str) -> OwnerId | None:
        """An id as :meth:`__str__` wrote it, or None when it is not one."""
        rest, _, token = text.rpartition(":")
        rest, _, pid = rest.rpartition(":")
        host, _, space = rest.rpartition(":")
        if not host or not pid.isdigit() or not space:
            return None
        return cls(host, int(pid), token, space)


def process_space() -> str:
    """This process's PID namespace, as ``<boot id>.<namespace inode>`` (Linux), or a
    random one where that cannot be read (then no other process is judged gone)."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip().replace("-", "")[:12]
        namespace = os.readlink("/proc/self/ns/pid")  # "pid:[4026531836]"
    except OSError:
        return "x" + uuid.uuid4().hex[:12]
    return f"{boot}.{''.join(c for c in namespace if c.isdigit())}"


def new_owner_id(host: str | None = None) -> OwnerId:
    """This process's id: its host name (or ``host``: ``DOMINO_INSTANCE``), process
    space, process id and a random token."""
    return OwnerId(
        host or socket.gethostname(), os.getpid(), uuid.uuid4().hex[:12], process_space()
    )


def owner_is_gone(claim: str, me: OwnerId) -> bool:
    """Whether the process that wrote ``claim`` is known not to run any more: it ran in
    this process space (same kernel boot and PID namespace, see :class:`OwnerId`) and
    its process id is ours with another token (an earlier life of this process) or no
    longer exists. Any other process (another container or machine, even with the same
    name and PID) is never judged here: only its heartbeat's age can tell."""
    other = OwnerId.parse(claim)
    if other is None or other.space != me.space or other.space.startswith("x"):
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
