"""The SQLite schema as forward-only, append-only named migrations.

Each migration is applied once, in order, inside its own ``BEGIN IMMEDIATE`` transaction
together with its row in ``schema_migrations`` (name, when it was applied). Never edit or
remove a released migration: append a new one. A database holding a migration this code
does not know was written by a newer version and is refused.

The ledger (design.md, "Money moves only through the ledger"): ``accounts`` (the house,
one per player, one escrow per match) carry a ``balance`` that only the trigger on
``entries`` changes, so each balance equals the sum of its entries by construction;
CHECK constraints keep player and escrow balances from going negative; entries can be
neither updated nor deleted; ``transactions.key`` is the idempotency key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from storage.base import SchemaError

__all__ = ["MIGRATIONS", "Migration", "not_applied"]


@dataclass(frozen=True)
class Migration:
    """A named schema step.

    Attributes:
        name: unique, sortable name (``"0001_players_and_wallet"``).
        statements: SQL statements, run in order in one transaction.
    """

    name: str
    statements: tuple[str, ...]

    @property
    def checksum(self) -> str:
        """SHA-256 of the statements (a released migration's checksum never changes)."""
        return hashlib.sha256("\n;\n".join(self.statements).encode()).hexdigest()


MIGRATIONS: Final[tuple[Migration, ...]] = (
    Migration(
        "0001_players_and_wallet",
        (
            """CREATE TABLE players (
                id INTEGER PRIMARY KEY,
                display_name TEXT NOT NULL,
                language TEXT NOT NULL DEFAULT 'es' CHECK (language IN ('es', 'en')),
                created_at REAL NOT NULL,
                last_top_up REAL
            )""",
            """CREATE TABLE player_links (
                platform TEXT NOT NULL,
                platform_user_id TEXT NOT NULL,
                player_id INTEGER NOT NULL REFERENCES players (id),
                PRIMARY KEY (platform, platform_user_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX player_links_player ON player_links (player_id)",
            """CREATE TABLE accounts (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL CHECK (kind IN ('house', 'player', 'escrow')),
                player_id INTEGER REFERENCES players (id),
                match_id TEXT,
                balance INTEGER NOT NULL DEFAULT 0,
                CHECK (kind = 'house' OR balance >= 0),
                CHECK ((kind = 'player') = (player_id IS NOT NULL)),
                CHECK ((kind = 'escrow') = (match_id IS NOT NULL))
            )""",
            "INSERT INTO accounts (id, key, kind) VALUES (1, 'house', 'house')",
            """CREATE TABLE transactions (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL
                    CHECK (kind IN ('open', 'top_up', 'stake', 'payout', 'refund', 'forfeit')),
                match_id TEXT,
                created_at REAL NOT NULL
            )""",
            """CREATE TABLE entries (
                id INTEGER PRIMARY KEY,
                transaction_id INTEGER NOT NULL REFERENCES transactions (id),
                account_id INTEGER NOT NULL REFERENCES accounts (id),
                amount INTEGER NOT NULL CHECK (amount <> 0)
            )""",
            "CREATE INDEX entries_account ON entries (account_id, id)",
            """CREATE TRIGGER entries_post AFTER INSERT ON entries BEGIN
                UPDATE accounts SET balance = balance + NEW.amount WHERE id = NEW.account_id;
            END""",
            """CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries BEGIN
                SELECT RAISE (ABORT, 'ledger entries are append-only');
            END""",
            """CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries BEGIN
                SELECT RAISE (ABORT, 'ledger entries are append-only');
            END""",
            """CREATE TABLE escrows (
                match_id TEXT PRIMARY KEY,
                account_id INTEGER NOT NULL REFERENCES accounts (id),
                stake INTEGER NOT NULL CHECK (stake >= 0),
                state TEXT NOT NULL DEFAULT 'open'
                    CHECK (state IN ('open', 'settled', 'refunded')),
                created_at REAL NOT NULL,
                closed_at REAL
            ) WITHOUT ROWID""",
            """CREATE TABLE escrow_holders (
                match_id TEXT NOT NULL REFERENCES escrows (match_id),
                player_id INTEGER NOT NULL REFERENCES players (id),
                position INTEGER NOT NULL,
                status TEXT NOT NULL DEFAULT 'held'
                    CHECK (status IN ('held', 'forfeited', 'paid', 'lost', 'refunded')),
                paid INTEGER NOT NULL DEFAULT 0 CHECK (paid >= 0),
                PRIMARY KEY (match_id, player_id)
            ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        "0002_match_history_and_statistics",
        (
            """CREATE TABLE matches (
                id INTEGER PRIMARY KEY,
                match_id TEXT NOT NULL UNIQUE,
                chat TEXT NOT NULL,
                finished_at REAL NOT NULL,
                record TEXT NOT NULL CHECK (json_valid(record))
            )""",
            "CREATE INDEX matches_chat ON matches (chat, finished_at)",
            "CREATE INDEX matches_finished ON matches (finished_at)",
            """CREATE TABLE match_results (
                match_id TEXT NOT NULL REFERENCES matches (match_id),
                player_id INTEGER NOT NULL REFERENCES players (id),
                chat TEXT NOT NULL,
                finished_at REAL NOT NULL,
                team INTEGER NOT NULL CHECK (team IN (0, 1)),
                won_match INTEGER NOT NULL CHECK (won_match IN (0, 1)),
                hands_won INTEGER NOT NULL CHECK (hands_won >= 0),
                dominoes INTEGER NOT NULL CHECK (dominoes >= 0),
                trancas_won INTEGER NOT NULL CHECK (trancas_won >= 0),
                capicuas INTEGER NOT NULL CHECK (capicuas >= 0),
                PRIMARY KEY (match_id, player_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX match_results_player ON match_results (player_id, finished_at)",
            "CREATE INDEX match_results_chat ON match_results (chat, player_id)",
        ),
    ),
    Migration(
        "0003_chat_rules_and_table_snapshots",
        (
            """CREATE TABLE chat_rules (
                chat TEXT PRIMARY KEY,
                preset TEXT NOT NULL,
                overrides TEXT NOT NULL CHECK (json_valid(overrides)),
                changed_by INTEGER,
                changed_at REAL NOT NULL
            )""",
            """CREATE TABLE table_snapshots (
                table_id TEXT PRIMARY KEY,
                snapshot TEXT NOT NULL CHECK (json_valid(snapshot)),
                saved_at REAL NOT NULL
            )""",
            "CREATE INDEX table_snapshots_saved ON table_snapshots (saved_at, table_id)",
        ),
    ),
    Migration(
        # Rankings and statistics read one row per (chat, player) instead of every
        # result; existing results are summed in.
        "0004_player_chat_totals",
        (
            """CREATE TABLE player_chat_totals (
                chat TEXT NOT NULL,
                player_id INTEGER NOT NULL REFERENCES players (id),
                matches_played INTEGER NOT NULL CHECK (matches_played > 0),
                matches_won INTEGER NOT NULL CHECK (matches_won >= 0),
                hands_won INTEGER NOT NULL CHECK (hands_won >= 0),
                dominoes INTEGER NOT NULL CHECK (dominoes >= 0),
                trancas_won INTEGER NOT NULL CHECK (trancas_won >= 0),
                capicuas INTEGER NOT NULL CHECK (capicuas >= 0),
                last_played REAL NOT NULL,
                PRIMARY KEY (chat, player_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX player_chat_totals_player ON player_chat_totals (player_id)",
            """INSERT INTO player_chat_totals (chat, player_id, matches_played, matches_won,
                hands_won, dominoes, trancas_won, capicuas, last_played)
            SELECT chat, player_id, COUNT(*), SUM(won_match), SUM(hands_won), SUM(dominoes),
                SUM(trancas_won), SUM(capicuas), MAX(finished_at)
            FROM match_results GROUP BY chat, player_id""",
        ),
    ),
    Migration(
        # One process runs a platform's live tables on a database: its claim and
        # heartbeat (issue 13: two processes must never own one table).
        "0005_table_claims",
        (
            """CREATE TABLE table_claims (
                platform TEXT PRIMARY KEY,
                owner TEXT NOT NULL,
                heartbeat_at REAL NOT NULL
            ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        # A chat's own settings, apart from its rules: setting the language must not
        # make the rules "set by the admins" (that would lock players' presets).
        "0006_chat_settings",
        (
            """CREATE TABLE chat_settings (
                chat TEXT PRIMARY KEY,
                language TEXT NOT NULL CHECK (language IN ('es', 'en')),
                changed_by INTEGER,
                changed_at REAL NOT NULL
            )""",
        ),
    ),
    Migration(
        # Ratings, seasons and profiles (issue 14; docs/ratings.md). The tables are
        # derived from the match records: storage.sqlite fills them for matches stored
        # before this migration when it opens the database (a rebuild), so an upgraded
        # database is rated as if ratings had always existed.
        "0007_ratings_and_seasons",
        (
            """CREATE TABLE match_seats (
                match_id TEXT NOT NULL REFERENCES matches (match_id),
                seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
                player_id INTEGER REFERENCES players (id),
                robot TEXT,
                won INTEGER NOT NULL CHECK (won IN (0, 1)),
                points INTEGER NOT NULL,
                hands INTEGER NOT NULL CHECK (hands >= 0),
                moves INTEGER NOT NULL CHECK (moves >= 0),
                robot_moves INTEGER NOT NULL CHECK (robot_moves >= 0),
                chat TEXT NOT NULL,
                finished_at REAL NOT NULL,
                PRIMARY KEY (match_id, seat),
                CHECK ((player_id IS NULL) <> (robot IS NULL))
            ) WITHOUT ROWID""",
            "CREATE INDEX match_seats_player ON match_seats (player_id, finished_at)",
            "CREATE INDEX match_seats_chat ON match_seats (chat)",
            """CREATE TABLE match_seasons (
                match_id TEXT PRIMARY KEY REFERENCES matches (match_id),
                chat_season TEXT NOT NULL,
                global_season TEXT NOT NULL,
                rated INTEGER NOT NULL CHECK (rated IN (0, 1))
            ) WITHOUT ROWID""",
            """CREATE TABLE ratings (
                chat TEXT NOT NULL,
                season TEXT NOT NULL,
                player_id INTEGER NOT NULL REFERENCES players (id),
                mu REAL NOT NULL,
                sigma REAL NOT NULL CHECK (sigma > 0),
                matches INTEGER NOT NULL CHECK (matches > 0),
                wins INTEGER NOT NULL CHECK (wins BETWEEN 0 AND matches),
                updated_at REAL NOT NULL,
                PRIMARY KEY (chat, season, player_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX ratings_player ON ratings (player_id)",
            """CREATE TABLE rating_history (
                player_id INTEGER NOT NULL REFERENCES players (id),
                seq INTEGER NOT NULL,
                match_id TEXT NOT NULL,
                at REAL NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                PRIMARY KEY (player_id, seq)
            ) WITHOUT ROWID""",
            """CREATE TABLE chat_seasons (
                chat TEXT PRIMARY KEY,
                period TEXT NOT NULL CHECK (period IN ('weekly', 'monthly', 'quarterly')),
                changed_by INTEGER,
                changed_at REAL NOT NULL
            )""",
            """CREATE TABLE season_finals (
                chat TEXT NOT NULL,
                season TEXT NOT NULL,
                announced_at REAL NOT NULL,
                PRIMARY KEY (chat, season)
            ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        # A claim's fencing token (issue 17): it grows by one with each new owner of a
        # scope, and every write of that scope's tables and money carries it, so a
        # process that lost its lease can no longer write.
        "0008_claim_fences",
        ("ALTER TABLE table_claims ADD COLUMN fence INTEGER NOT NULL DEFAULT 0",),
    ),
    Migration(
        # A player's turn notifications (issue 27): every own turn, or none.
        "0009_player_notifications",
        (
            "ALTER TABLE players ADD COLUMN notifications TEXT NOT NULL DEFAULT 'turn'"
            " CHECK (notifications IN ('turn', 'none'))",
        ),
    ),
    Migration(
        # A platform user's username (Telegram's @name, lower case, without the @), so
        # /perfil @name finds a player after a restart (issue 27.13).
        "0010_link_usernames",
        (
            "ALTER TABLE player_links ADD COLUMN username TEXT",
            "CREATE INDEX player_links_username ON player_links (platform, username)"
            " WHERE username IS NOT NULL",
        ),
    ),
    Migration(
        # A list per format (issue 29; docs/ratings.md, "Formats"): ratings and their
        # history gain a rating format ('' is today's game, where every existing row
        # stays), a match's seasons row its format, a seat its side (the partnership
        # seat % 2 for every existing seat; the seat itself in individual play), and a
        # result's team may be any side 0..3. SQLite cannot change a primary key or a
        # CHECK in place: ratings, rating_history and match_results are rebuilt, row
        # for row.
        "0011_rating_formats",
        (
            # the key's columns come first, in its order (SQLite 3.40's quick_check
            # misreads a WITHOUT ROWID table whose key columns are declared otherwise)
            """CREATE TABLE ratings_formats (
                format TEXT NOT NULL DEFAULT '',
                chat TEXT NOT NULL,
                season TEXT NOT NULL,
                player_id INTEGER NOT NULL REFERENCES players (id),
                mu REAL NOT NULL,
                sigma REAL NOT NULL CHECK (sigma > 0),
                matches INTEGER NOT NULL CHECK (matches > 0),
                wins INTEGER NOT NULL CHECK (wins BETWEEN 0 AND matches),
                updated_at REAL NOT NULL,
                PRIMARY KEY (format, chat, season, player_id)
            ) WITHOUT ROWID""",
            """INSERT INTO ratings_formats (chat, season, player_id, mu, sigma, matches,
                wins, updated_at, format)
            SELECT chat, season, player_id, mu, sigma, matches, wins, updated_at, ''
            FROM ratings""",
            "DROP TABLE ratings",
            "ALTER TABLE ratings_formats RENAME TO ratings",
            "CREATE INDEX ratings_player ON ratings (player_id)",
            """CREATE TABLE rating_history_formats (
                player_id INTEGER NOT NULL REFERENCES players (id),
                format TEXT NOT NULL DEFAULT '',
                seq INTEGER NOT NULL,
                match_id TEXT NOT NULL,
                at REAL NOT NULL,
                mu REAL NOT NULL,
                sigma REAL NOT NULL,
                PRIMARY KEY (player_id, format, seq)
            ) WITHOUT ROWID""",
            """INSERT INTO rating_history_formats (player_id, seq, match_id, at, mu, sigma,
                format)
            SELECT player_id, seq, match_id, at, mu, sigma, '' FROM rating_history""",
            "DROP TABLE rating_history",
            "ALTER TABLE rating_history_formats RENAME TO rating_history",
            """CREATE TABLE match_results_formats (
                match_id TEXT NOT NULL REFERENCES matches (match_id),
                player_id INTEGER NOT NULL REFERENCES players (id),
                chat TEXT NOT NULL,
                finished_at REAL NOT NULL,
                team INTEGER NOT NULL CHECK (team BETWEEN 0 AND 3),
                won_match INTEGER NOT NULL CHECK (won_match IN (0, 1)),
                hands_won INTEGER NOT NULL CHECK (hands_won >= 0),
                dominoes INTEGER NOT NULL CHECK (dominoes >= 0),
                trancas_won INTEGER NOT NULL CHECK (trancas_won >= 0),
                capicuas INTEGER NOT NULL CHECK (capicuas >= 0),
                PRIMARY KEY (match_id, player_id)
            ) WITHOUT ROWID""",
            """INSERT INTO match_results_formats SELECT match_id, player_id, chat,
                finished_at, team, won_match, hands_won, dominoes, trancas_won, capicuas
            FROM match_results""",
            "DROP TABLE match_results",
            "ALTER TABLE match_results_formats RENAME TO match_results",
            "CREATE INDEX match_results_player ON match_results (player_id, finished_at)",
            "CREATE INDEX match_results_chat ON match_results (chat, player_id)",
            "ALTER TABLE match_seats ADD COLUMN side INTEGER NOT NULL DEFAULT 0"
            " CHECK (side BETWEEN 0 AND 3)",
            "UPDATE match_seats SET side = seat % 2",
            "ALTER TABLE match_seasons ADD COLUMN format TEXT NOT NULL DEFAULT ''",
        ),
    ),
    Migration(
        # Tournaments (issue 32): a live tournament's snapshot (the service's whole state,
        # resumed after a restart) kept when it finishes or is cancelled, its name and
        # size once finished, and each player's place for their profile.
        "0012_tournaments",
        (
            """CREATE TABLE tournaments (
                tournament_id TEXT PRIMARY KEY,
                chat TEXT NOT NULL,
                snapshot TEXT NOT NULL CHECK (json_valid(snapshot)),
                state TEXT NOT NULL DEFAULT 'live'
                    CHECK (state IN ('live', 'finished', 'cancelled')),
                created_at REAL NOT NULL,
                saved_at REAL NOT NULL,
                name TEXT,
                entrants INTEGER CHECK (entrants >= 1),
                closed_at REAL,
                CHECK ((state = 'finished') = (name IS NOT NULL AND entrants IS NOT NULL)),
                CHECK ((state = 'live') = (closed_at IS NULL))
            )""",
            "CREATE INDEX tournaments_live ON tournaments (created_at, tournament_id)"
            " WHERE state = 'live'",
            "CREATE INDEX tournaments_chat ON tournaments (chat)",
            """CREATE TABLE tournament_places (
                tournament_id TEXT NOT NULL REFERENCES tournaments (tournament_id),
                player_id INTEGER NOT NULL REFERENCES players (id),
                place INTEGER NOT NULL CHECK (place >= 1),
                PRIMARY KEY (tournament_id, player_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX tournament_places_player ON tournament_places (player_id)",
        ),
    ),
    Migration(
        # Friends (issue 33): requests waiting for an answer, friendships (one row each
        # way, so a player's friends are one indexed read) and when a player was last
        # seen (storage/friends.py).
        "0013_friends",
        (
            """CREATE TABLE friend_requests (
                from_id INTEGER NOT NULL REFERENCES players (id),
                to_id INTEGER NOT NULL REFERENCES players (id),
                created_at REAL NOT NULL,
                PRIMARY KEY (from_id, to_id),
                CHECK (from_id <> to_id)
            ) WITHOUT ROWID""",
            "CREATE INDEX friend_requests_to ON friend_requests (to_id, created_at)",
            """CREATE TABLE friendships (
                player_id INTEGER NOT NULL REFERENCES players (id),
                friend_id INTEGER NOT NULL REFERENCES players (id),
                since REAL NOT NULL,
                PRIMARY KEY (player_id, friend_id),
                CHECK (player_id <> friend_id)
            ) WITHOUT ROWID""",
            """CREATE TABLE player_seen (
                player_id INTEGER PRIMARY KEY REFERENCES players (id),
                seen_at REAL NOT NULL
            )""",
        ),
    ),
    Migration(
        # Mute, report and moderation (issue 33; docs/moderation.md): who muted whom,
        # players' reports with the match they were about, a chat's bans, every admin
        # action, and the channel a Discord server's reports go to.
        "0015_moderation",
        (
            """CREATE TABLE mutes (
                player_id INTEGER NOT NULL REFERENCES players (id),
                muted_id INTEGER NOT NULL REFERENCES players (id),
                created_at REAL NOT NULL,
                PRIMARY KEY (player_id, muted_id),
                CHECK (player_id <> muted_id)
            ) WITHOUT ROWID""",
            """CREATE TABLE reports (
                id INTEGER PRIMARY KEY,
                chat TEXT NOT NULL,
                reporter_id INTEGER NOT NULL REFERENCES players (id),
                reported_id INTEGER NOT NULL REFERENCES players (id),
                reason TEXT NOT NULL,
                match_id TEXT,
                state TEXT NOT NULL DEFAULT 'open'
                    CHECK (state IN ('open', 'dismissed', 'banned')),
                created_at REAL NOT NULL,
                closed_at REAL,
                closed_by INTEGER REFERENCES players (id),
                CHECK (reporter_id <> reported_id),
                CHECK ((state = 'open') = (closed_at IS NULL))
            )""",
            "CREATE UNIQUE INDEX reports_open ON reports (chat, reporter_id, reported_id)"
            " WHERE state = 'open'",
            "CREATE INDEX reports_chat ON reports (chat, state, id)",
            """CREATE TABLE bans (
                chat TEXT NOT NULL,
                player_id INTEGER NOT NULL REFERENCES players (id),
                banned_by INTEGER NOT NULL REFERENCES players (id),
                banned_at REAL NOT NULL,
                PRIMARY KEY (chat, player_id)
            ) WITHOUT ROWID""",
            """CREATE TABLE moderation_log (
                id INTEGER PRIMARY KEY,
                chat TEXT NOT NULL,
                admin_id INTEGER NOT NULL REFERENCES players (id),
                action TEXT NOT NULL CHECK (action IN ('dismiss', 'ban', 'unban')),
                player_id INTEGER NOT NULL REFERENCES players (id),
                report_id INTEGER REFERENCES reports (id),
                at REAL NOT NULL
            )""",
            "CREATE INDEX moderation_log_chat ON moderation_log (chat, id)",
            """CREATE TABLE report_channels (
                chat TEXT PRIMARY KEY,
                channel_id TEXT NOT NULL
            ) WITHOUT ROWID""",
        ),
    ),
    Migration(
        # One player on both platforms (issue 33; docs/players.md): the short codes one
        # platform gives and the other accepts, a merged player's survivor (the merged
        # id stays as an alias: its ledger rows are never rewritten), and the ledger's
        # 'merge' transaction kind (a wallet moved whole into the survivor's). SQLite
        # cannot widen a CHECK in place: transactions is rebuilt, row for row, its
        # entries' references deferred until its rows are back.
        "0016_links",
        (
            """CREATE TABLE link_codes (
                code TEXT PRIMARY KEY,
                platform TEXT NOT NULL,
                platform_user_id TEXT NOT NULL,
                created_at REAL NOT NULL,
                expires_at REAL NOT NULL,
                used_at REAL,
                CHECK (expires_at > created_at)
            ) WITHOUT ROWID""",
            "CREATE INDEX link_codes_user ON link_codes (platform, platform_user_id)",
            "ALTER TABLE players ADD COLUMN merged_into INTEGER REFERENCES players (id)",
            "PRAGMA defer_foreign_keys = ON",
            "CREATE TABLE transactions_kept AS SELECT * FROM transactions",
            "DROP TABLE transactions",
            """CREATE TABLE transactions (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL CHECK (kind IN ('open', 'top_up', 'stake', 'payout',
                    'refund', 'forfeit', 'merge')),
                match_id TEXT,
                created_at REAL NOT NULL
            )""",
            """INSERT INTO transactions (id, key, kind, match_id, created_at)
            SELECT id, key, kind, match_id, created_at FROM transactions_kept ORDER BY id""",
            "DROP TABLE transactions_kept",
        ),
    ),
)
"""Every migration, oldest first. Append only."""


def not_applied(applied: Mapping[str, str], migrations: Sequence[Migration]) -> list[Migration]:
    """The ``migrations`` not yet ``applied`` (name -> checksum, as stored), in order; for
    SQLite's and PostgreSQL's ``apply_migrations`` and ``pending_migrations`` alike.

    Raises:
        SchemaError: ``applied`` holds a migration not in ``migrations`` (a newer version's
            database), or one whose statements changed after it was applied.
    """
    known = {m.name: m for m in migrations}
    unknown = sorted(set(applied) - set(known))
    if unknown:
        raise SchemaError(
            f"the database has migrations this version does not know: {', '.join(unknown)}"
            " (written by a newer version?)"
        )
    for name, checksum in applied.items():
        if known[name].checksum != checksum:
            raise SchemaError(f"migration {name} changed after it was applied")
    return [m for m in migrations if m.name not in applied]
