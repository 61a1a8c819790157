"""Who sits with whom: table sizes, byes, round-robin seat orders and Swiss tables.

- `split` seats as many players as the allowed table sizes can (the rest get a
  bye), at the fewest tables, as even in size as the sizes allow.
- Round robin: the whole group at one table; round 1's seat order is drawn,
  each later round shifts everyone one seat on, so over N rounds each player
  starts from each seat once.
- Swiss: players ranked by points (random order within equal points), tables
  filled from the top — each table takes the best remaining player, then the
  next best who has not met anyone already seated (closest in rank wins, so
  tables stay within score groups); leftover repeats are then swapped away,
  first between neighbouring tables, then by a short min-conflicts walk (a
  player who repeats a meeting moves by the cheapest swap). Seat
  order at each table is drawn, so no one is always first to play.
- Byes go to the lowest-ranked players among those with the fewest byes.
- Only entrants still playing are paired: a withdrawn or disqualified entrant
  leaves every later round (a round robin's rotation goes on without them); a
  late entrant joins the next round planned. Too few players left for a table
  means no round (the tournament then finishes).

All randomness comes from the `Chance` handed in (the tournament's seed at the
version the round is decided at), and the outcome is recorded in the events.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from itertools import combinations

from domain.chance import Chance
from domain.tournament.standings import points_by_entrant
from domain.tournament.state import ROUND_ROBIN, Tournament

Meetings = Mapping[int, Mapping[int, int]]
_NEVER = 1 << 30


def split(players: int, sizes: Sequence[int]) -> tuple[list[int], int]:
    """Return the table sizes (largest first) and the number of players left over for byes."""
    allowed = sorted(set(sizes))
    fewest = [0] + [_NEVER] * players
    for total in range(1, players + 1):
        fewest[total] = min((fewest[total - s] + 1 for s in allowed if s <= total), default=_NEVER)
    seated = max(total for total in range(players + 1) if fewest[total] < _NEVER)
    if seated == 0:
        return [], players
    count = fewest[seated]
    share, extra = divmod(seated, count)
    even = [share + 1] * extra + [share] * (count - extra)
    if all(size in allowed for size in even):
        return even, players - seated
    tables, left = [], seated
    while left:
        size = max(s for s in allowed if s <= left and fewest[left - s] == fewest[left] - 1)
        tables.append(size)
        left -= size
    return sorted(tables, reverse=True), players - seated


def meetings(tournament: Tournament) -> dict[int, Counter[int]]:
    """Return how often each pair of entrants has shared a table."""
    met: dict[int, Counter[int]] = defaultdict(Counter)
    for round_ in tournament.played:
        for table in round_.tables:
            for a, b in combinations(table.entrants, 2):
                met[a][b] += 1
                met[b][a] += 1
    return met


def repeats(table: Sequence[int], met: Meetings) -> int:
    """Return the number of earlier meetings among a table's players."""
    return sum(met[a].get(b, 0) for a, b in combinations(table, 2) if a in met)


def choose_byes(ranked: Sequence[int], count: int, byes_had: Mapping[int, int]) -> list[int]:
    """Return `count` entrants for a bye: the lowest ranked among those with the fewest byes."""
    bottom_up = list(reversed(ranked))
    return sorted(bottom_up, key=lambda entrant: byes_had.get(entrant, 0))[:count]


def swiss(ranked: Sequence[int], sizes: Sequence[int], met: Meetings, chance: Chance) -> list[list[int]]:
    """Fill tables of the given sizes from the ranked players, avoiding repeat meetings."""
    pool = list(ranked)
    tables: list[list[int]] = []
    for size in sizes:
        table = [pool.pop(0)]
        while len(table) < size:
            table.append(pool.pop(_closest_fit(pool, table, met)))
        tables.append(table)
    _swap_repeats(tables, met, reach=2)
    _min_conflicts(tables, met, chance, reach=len(tables) if len(tables) <= 64 else 8)
    return tables


def _closest_fit(pool: Sequence[int], table: Sequence[int], met: Meetings) -> int:
    """Return the index of the best-ranked player who repeats the fewest meetings."""
    best, best_cost = 0, _NEVER
    for index, candidate in enumerate(pool):
        seen = met.get(candidate)
        cost = sum(seen.get(p, 0) for p in table) if seen else 0
        if cost == 0:
            return index
        if cost < best_cost:
            best, best_cost = index, cost
    return best


def _swap_repeats(tables: list[list[int]], met: Meetings, reach: int, passes: int = 3) -> None:
    """Swap players between tables within `reach` of each other while that removes repeats."""
    for _ in range(passes):
        changed = False
        for i, table in enumerate(tables):
            if repeats(table, met) == 0:
                continue
            for j in range(max(0, i - reach), min(len(tables), i + reach + 1)):
                if j != i and _best_swap(tables, i, j, met):
                    changed = True
                    if repeats(tables[i], met) == 0:
                        break
        if not changed:
            return


def _best_swap(tables: list[list[int]], i: int, j: int, met: Meetings) -> bool:
    """Make the one swap between tables i and j that removes the most repeats, if any does."""
    before = repeats(tables[i], met) + repeats(tables[j], met)
    best, best_total = None, before
    for a in range(len(tables[i])):
        for b in range(len(tables[j])):
            left = tables[i][:a] + [tables[j][b]] + tables[i][a + 1 :]
            right = tables[j][:b] + [tables[i][a]] + tables[j][b + 1 :]
            total = repeats(left, met) + repeats(right, met)
            if total < best_total:
                best, best_total = (left, right), total
    if best is None:
        return False
    tables[i], tables[j] = best
    return True


def _min_conflicts(tables: list[list[int]], met: Meetings, chance: Chance, reach: int, budget: int = 400) -> None:
    """Walk away from the repeats a greedy fill leaves: move a player who repeats a meeting
    to the swap that costs least, sideways moves allowed (picked by chance, so it cannot
    cycle for ever), until no table repeats a meeting or the budget is spent.
    """
    for step in range(budget):
        bad = [i for i, table in enumerate(tables) if repeats(table, met)]
        if not bad:
            return
        i = bad[chance.below(len(bad))]
        table = tables[i]
        clashing = [a for a, p in enumerate(table) if any(met.get(p, {}).get(o, 0) for o in table if o != p)]
        a = clashing[chance.below(len(clashing))]
        before_i = repeats(table, met)
        moves: list[tuple[int, int, int]] = []
        for j in range(max(0, i - reach), min(len(tables), i + reach + 1)):
            if j == i:
                continue
            before = before_i + repeats(tables[j], met)
            for b in range(len(tables[j])):
                left = table[:a] + [tables[j][b]] + table[a + 1 :]
                right = tables[j][:b] + [table[a]] + tables[j][b + 1 :]
                moves.append((repeats(left, met) + repeats(right, met) - before, j, b))
        if not moves:
            return
        least = min(delta for delta, _, _ in moves)
        if least > 0:
            continue
        # Of the cheapest swaps, the nearest for the first half of the walk (tables stay
        # close to their score groups), then any of them (to get out of a local minimum).
        nearest = min(abs(j - i) for delta, j, _ in moves if delta == least) if step < budget // 2 else reach
        best = [(j, b) for delta, j, b in moves if delta == least and abs(j - i) <= nearest]
        j, b = best[chance.below(len(best))]
        tables[i][a], tables[j][b] = tables[j][b], tables[i][a]


def rank_for_pairing(tournament: Tournament, chance: Chance) -> list[int]:
    """Return the entrants by points, best first, in random order within equal points."""
    points = points_by_entrant(tournament)
    shuffled = chance.shuffle([e.index for e in tournament.playing])
    return sorted(shuffled, key=lambda entrant: -points[entrant])


def plan_round(tournament: Tournament, chance: Chance) -> tuple[list[list[int]], list[int]]:
    """Return the next round's tables (each in seat order) and its byes."""
    if tournament.format == ROUND_ROBIN:
        if not tournament.played:
            return [chance.shuffle([e.index for e in tournament.playing])], []
        first = list(tournament.played[0].tables[0].entrants)
        shift = len(tournament.played) % len(first)
        playing = {e.index for e in tournament.playing}
        table = [entrant for entrant in first[shift:] + first[:shift] if entrant in playing]
        return ([table], []) if len(table) in tournament.table_sizes else ([], [])
    sizes, bye_count = split(len(tournament.playing), tournament.table_sizes)
    if not sizes:
        return [], []
    ranked = rank_for_pairing(tournament, chance)
    byes_had = Counter(entrant for round_ in tournament.played for entrant in round_.byes)
    byes = choose_byes(ranked, bye_count, byes_had)
    on_bye = set(byes)
    seated = [entrant for entrant in ranked if entrant not in on_bye]
    tables = swiss(seated, sizes, meetings(tournament), chance)
    return [chance.shuffle(table) for table in tables], sorted(byes)
