"""Online play (platform.md): matchmaking with simulated players, staked tables, boosters and VIP, the weekly league.

- queues.py: the matchmaking queues in Redis, each step one atomic Lua script
- matchmaking.py: what each step means for players: stakes, live tables, notices
- stakes.py: stakes into a table's pot and refunds out of it (ledger transfers with idempotency keys)
- shop.py: the gold booster and the VIP pass, and the prize multipliers they give
- league.py: league points per game and week, standings, closing a week
- service.py: all of it as one unit the app starts and stops, with its background loop
- endpoints.py: /api/matchmaking, /api/shop, /api/league
- schemas.py: what those endpoints take and give
"""
