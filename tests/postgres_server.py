"""A PostgreSQL server for the tests: the one named by ``DOMINO_TEST_POSTGRES``, or a
throwaway one started here.

``DOMINO_TEST_POSTGRES`` is a DSN of a server where the tests may create and drop
databases (``postgresql://postgres@127.0.0.1:5432/postgres``). Unset, the session starts
its own server from Debian's binaries (``/usr/lib/postgresql/*/bin/initdb`` and
``pg_ctl``, package ``postgresql``) in a temporary directory, listening on a free port of
127.0.0.1 only, as an unprivileged user (``nobody`` when the tests run as root: initdb
refuses root), with durability off (a test server needs no fsync), and stops it at the
end. Each test gets a fresh database copied from a migrated template.

Without binaries or a DSN the PostgreSQL tests are skipped with the reason, unless
``DOMINO_REQUIRE_POSTGRES=1`` (set by ``.ci/run``), which turns that skip into a failure.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

__all__ = ["PostgresServer", "PostgresUnavailable", "require_postgres", "start_server"]

REQUIRE_ENV = "DOMINO_REQUIRE_POSTGRES"
DSN_ENV = "DOMINO_TEST_POSTGRES"
TEMPLATE = "domino_test_template"


class PostgresUnavailable(Exception):
    """No server can be had here; the message says why."""


def require_postgres() -> bool:
    """Whether a missing server must fail the tests (CI) rather than skip them."""
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def _with_database(dsn: str, database: str) -> str:
    parts = urlsplit(dsn)
    return urlunsplit(parts._replace(path="/" + database))


@dataclass
class PostgresServer:
    """A reachable server: ``admin_dsn`` may create databases."""

    admin_dsn: str
    data_dir: Path | None = None
    pg_ctl: str | None = None
    run_as: list[str] = field(default_factory=list)
    _names: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _template_ready: bool = False

    def dsn(self, database: str) -> str:
        return _with_database(self.admin_dsn, database)

    async def create_database(self, *, migrated: bool = True) -> str:
        """A new, empty database (migrated from the template, or bare); its DSN."""
        import asyncpg

        if migrated and not self._template_ready:
            await self.prepare_template()
            self._template_ready = True
        name = f"domino_test_{os.getpid()}_{next(self._names)}"
        admin = await asyncpg.connect(self.admin_dsn)
        try:
            template = TEMPLATE if migrated else "template0"
            await admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            await admin.close()
        return self.dsn(name)

    async def drop_database(self, dsn: str) -> None:
        import asyncpg

        name = urlsplit(dsn).path.lstrip("/")
        admin = await asyncpg.connect(self.admin_dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()

    async def prepare_template(self) -> None:
        """(Re)create the migrated template database the tests' databases copy."""
        import asyncpg

        from storage.postgres import PostgresStorage

        admin = await asyncpg.connect(self.admin_dsn)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{TEMPLATE}" WITH (FORCE)')
            await admin.execute(f'CREATE DATABASE "{TEMPLATE}" TEMPLATE template0')
        finally:
            await admin.close()
        store = await PostgresStorage.open(self.dsn(TEMPLATE))
        await store.close()

    def stop(self) -> None:
        if self.data_dir is None or self.pg_ctl is None:
            return
        subprocess.run(
            [*self.run_as, self.pg_ctl, "-D", str(self.data_dir / "data"), "-m", "immediate",
             "-w", "stop"],
            check=False,
            capture_output=True,
        )  # fmt: skip
        shutil.rmtree(self.data_dir, ignore_errors=True)


def _binaries() -> tuple[str, str]:
    """(initdb, pg_ctl) of the newest Debian PostgreSQL, else the ones on PATH."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if found:
        bin_dir = Path(found[-1]).parent
        return str(bin_dir / "initdb"), str(bin_dir / "pg_ctl")
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return initdb, pg_ctl
    raise PostgresUnavailable(
        f"no PostgreSQL server binaries (apt-get install postgresql) and {DSN_ENV} is not set"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server() -> PostgresServer:
    """The server of ``DOMINO_TEST_POSTGRES``, or a throwaway one started now.

    Raises:
        PostgresUnavailable: neither is possible here (the message says why).
    """
    dsn = os.environ.get(DSN_ENV)
    if dsn:
        return PostgresServer(dsn)
    initdb, pg_ctl = _binaries()
    run_as: list[str] = []
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            raise PostgresUnavailable("running as root and no runuser to drop to nobody")
        run_as = [runuser, "-u", "nobody", "--"]
    base = Path(tempfile.mkdtemp(prefix="domino-pg-"))
    if run_as:
        os.chown(base, *_nobody())
    port = _free_port()
    try:
        subprocess.run(
            [*run_as, initdb, "-D", str(base / "data"), "-A", "trust", "-U", "postgres",
             "-E", "UTF8", "--no-sync", "--no-instructions"],
            check=True,
            capture_output=True,
            text=True,
        )  # fmt: skip
        options = (
            f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        subprocess.run(
            [*run_as, pg_ctl, "-D", str(base / "data"), "-o", options, "-l",
             str(base / "server.log"), "-w", "-t", "60", "start"],
            check=True,
            capture_output=True,
            text=True,
        )  # fmt: skip
    except subprocess.CalledProcessError as exc:
        log = base / "server.log"
        detail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
        shutil.rmtree(base, ignore_errors=True)
        raise PostgresUnavailable(
            f"could not start a PostgreSQL server: {exc.cmd[len(run_as)]} said"
            f" {(exc.stderr or '').strip()[-1000:]} {detail}"
        ) from exc
    return PostgresServer(f"postgresql://postgres@127.0.0.1:{port}/postgres", base, pg_ctl, run_as)


def _nobody() -> tuple[int, int]:
    import pwd

    entry = pwd.getpwnam("nobody")
    return entry.pw_uid, entry.pw_gid


def pg_ctl(server: PostgresServer, action: str) -> None:
    """A real stop (``-m fast``) or start of the server, on the same data and port."""
    assert server.pg_ctl is not None and server.data_dir is not None
    port = server.admin_dsn.rsplit(":", 1)[1].split("/")[0]
    options = (
        f"-p {port} -k {server.data_dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        " -c synchronous_commit=off -c full_page_writes=off"
    )
    extra = (
        ["-m", "fast"]
        if action == "stop"
        else ["-o", options, "-l", str(server.data_dir / "server.log")]
    )
    subprocess.run(
        [*server.run_as, server.pg_ctl, "-D", str(server.data_dir / "data"), *extra, "-w", action],
        check=True,
        capture_output=True,
    )
