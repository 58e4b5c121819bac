"""The `tablestakes` command. Each subcommand imports its module only when run, so `simulate` starts fast."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tablestakes", description="Tablestakes: card and dice games online.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    # `tablestakes --port 9000` works too: serving is the default command. (Separate names, because a
    # subcommand's defaults would overwrite the top level's values.)
    serve = commands.add_parser("serve", help="apply migrations, then serve (the default command)")
    for where, prefix in ((parser, "default_"), (serve, "")):
        where.add_argument("--host", dest=f"{prefix}host", default=None, help="address to bind (default 127.0.0.1)")
        where.add_argument("--port", dest=f"{prefix}port", type=int, default=None,
                           help="port to bind (default 8000; 0 picks a free one)")

    commands.add_parser("migrate", help="upgrade the database to the newest schema")

    grant = commands.add_parser("grant", help="credit coins to a user through the ledger (operator)")
    grant.add_argument("username")
    grant.add_argument("coins", type=int)
    grant.add_argument("--reason", required=True, help="why, kept in the ledger entry")

    replay = commands.add_parser("replay", help="re-run a finished game from its seed and log, and check its result")
    replay.add_argument("game_id")

    grant_item = commands.add_parser("grant-item", help="give a user the gold booster or the VIP pass (operator)")
    grant_item.add_argument("username")
    grant_item.add_argument("item", choices=["booster", "vip"])
    grant_item.add_argument("--reason", required=True, help="why, kept with the grant")

    league = commands.add_parser("league", help="the weekly league (operator)")
    league_actions = league.add_subparsers(dest="league_action", metavar="ACTION", required=True)
    close_week = league_actions.add_parser(
        "close-week", help="pay the top three of an ended week, once (running it again pays nothing more)")
    close_week.add_argument("--game", action="append", dest="games", metavar="GAME",
                            help="a game's league (repeatable; default: every game)")
    close_week.add_argument("--week", metavar="YYYY-MM-DD",
                            help="any day of the week to close (default: the last week that has ended)")

    guests = commands.add_parser("guests", help="guest accounts (operator)")
    guest_actions = guests.add_subparsers(dest="guests_action", metavar="ACTION", required=True)
    guest_actions.add_parser("clean-up", help="delete guests older than GUEST_TTL_DAYS that never signed up")

    ratings = commands.add_parser("ratings", help="ratings per game (operator)")
    rating_actions = ratings.add_subparsers(dest="ratings_action", metavar="ACTION", required=True)
    recompute = rating_actions.add_parser(
        "recompute", help="recompute every rating from the game records and store them (or only compare: --check)")
    recompute.add_argument("--check", action="store_true",
                           help="change nothing; exit 1 if the stored ratings differ from the recomputed ones")

    commands.add_parser("audit", help="check the ledger in the database; exits 1 and says what differs on any "
                                      "difference (operator)")

    ban = commands.add_parser("ban", help="ban a user: no more logins, sessions revoked, seats covered by a bot, "
                                          "queued seat given up (operator)")
    ban.add_argument("username")
    ban.add_argument("--reason", required=True, help="why, kept with the ban and shown to the user at login")
    unban = commands.add_parser("unban", help="lift a user's ban (operator)")
    unban.add_argument("username")

    void = commands.add_parser("void", help="end a live or stuck table, every stake refunded (operator)")
    void.add_argument("game_id", metavar="GAME_ID")
    void.add_argument("--reason", required=True, help="why, kept in the refunds' ledger entries and shown to the "
                                                      "players")

    commands.add_parser("tables", help="list the tables being played: game, mode, seats, version, owner, age")

    backup = commands.add_parser("backup", help="back the database up to PATH (SQLite: online backup; "
                                                "PostgreSQL: pg_dump)")
    backup.add_argument("path", metavar="PATH")
    restore = commands.add_parser("restore", help="restore the backup at PATH into the database (servers stopped)")
    restore.add_argument("path", metavar="PATH")
    restore.add_argument("--replace", action="store_true",
                         help="overwrite a database that already holds Tablestakes tables")

    from app.games import simulate

    simulate.add_arguments(commands.add_parser("simulate", help="play bots against each other in-process"))
    return parser


OPERATOR_COMMANDS = {
    "audit": lambda commands, args: commands.audit(),
    "ban": lambda commands, args: commands.ban(args.username, args.reason),
    "unban": lambda commands, args: commands.unban(args.username),
    "void": lambda commands, args: commands.void(args.game_id, args.reason),
    "tables": lambda commands, args: commands.tables(),
    "backup": lambda commands, args: commands.backup(args.path),
    "restore": lambda commands, args: commands.restore(args.path, args.replace),
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    command = args.command or "serve"
    if command == "serve":
        from app import commands

        host = getattr(args, "host", None) or args.default_host
        port = getattr(args, "port", None)
        return commands.serve(host, args.default_port if port is None else port)
    if command == "migrate":
        from app import commands

        return commands.migrate()
    if command == "grant":
        from app import commands

        return commands.grant(args.username, args.coins, args.reason)
    if command == "replay":
        from app import commands

        return commands.replay(args.game_id)
    if command == "grant-item":
        from app import commands

        return commands.grant_item(args.username, args.item, args.reason)
    if command == "league":
        from app import commands

        return commands.league_close_week(args.games, args.week)
    if command == "guests":
        from app import commands

        return commands.remove_stale_guests()
    if command == "ratings":
        from app import commands

        return commands.ratings_recompute(args.check)

    if command in OPERATOR_COMMANDS:
        from app import commands

        return OPERATOR_COMMANDS[command](commands, args)
    if command == "simulate":
        from app.games import simulate

        return simulate.run(args)
    parser.error(f"unknown command {command!r}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
