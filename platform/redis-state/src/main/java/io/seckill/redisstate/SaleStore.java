package io.seckill.redisstate;

import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Predicate;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * A SKU's sale state in Redis, changed only through the Lua scripts of {@link LuaScript}, so every
 * change is one atomic step. Each script's reply is parsed here, once, into a type.
 *
 * <p>A SKU's stock may be split over buckets ({@link SaleLayout}), each in a hash slot of its own, so a hot SKU's calls
 * spread over a cluster's primaries. A buyer reserves, settles and is counted in their home bucket; a home bucket that
 * runs short borrows from the others, a transfer of units that is atomic at each end and recorded at the donor until it
 * has arrived ({@link #finishTransfers}), so none is lost or counted twice. A buyer is told {@code SOLD_OUT} only once
 * every bucket was found empty with no units moving between them.
 */
public final class SaleStore {

    private static final int RESTORE_CHUNK = 1_000;
    /**
     * What {@link #release} and {@link #confirmAll} answer for a reservation whose sale is not loaded: nothing changed.
     */
    public static final long NOT_LOADED = -1;
    /**
     * Rounds of borrowing one reservation may make while every bucket it asks is empty but units are moving between
     * them.
     */
    private static final int BORROW_ROUNDS = 3;
    /** How long a transfer is its taker's to finish before anyone who meets it finishes it. */
    public static final Duration TRANSFER_GRACE = Duration.ofSeconds(2);

    private final LuaRunner lua;
    private final SaleLayouts layouts;

    public SaleStore(LuaRunner lua) {
        this.lua = lua;
        this.layouts = new SaleLayouts(lua.redis());
    }

    /**
     * One atomic decision in the buyer's home bucket: sale loaded and open, quantity within the limit, user's limit,
     * stock, then reserve. A home bucket short of stock borrows from the others and decides again.
     */
    public ReserveOutcome reserve(
            long skuId, String orderId, String userId, int quantity, long nowMs, boolean passShown) {
        SaleLayout kept = layouts.kept(skuId);
        SaleLayout layout = kept != null ? kept : layouts.reread(skuId);
        ReserveOutcome outcome = reserveIn(layout.homeOf(userId), orderId, userId, quantity, nowMs, passShown);
        if (outcome.reservation() == Reservation.NOT_LOADED && kept != null) {
            layout = layouts.reread(skuId);
            if (layout.buckets() == kept.buckets()) {
                return outcome;
            }
            outcome = reserveIn(layout.homeOf(userId), orderId, userId, quantity, nowMs, passShown);
        } else if (kept == null && outcome.reservation() != Reservation.NOT_LOADED) {
            // A sale loaded before layouts were recorded is one bucket; kept once its sale answered, so a made-up SKU
            // is never kept.
            layouts.remember(layout);
        }
        if (layout.buckets() == 1) {
            return outcome;
        }
        SkuKeys home = layout.homeOf(userId);
        int emptyRounds = 0;
        for (int attempt = 0; attempt < layout.buckets() + BORROW_ROUNDS && outcome.isShort(); attempt++) {
            Borrowed borrowed = borrow(layout, home, quantity);
            if (borrowed.units() == 0 && borrowed.moving() == 0) {
                // Every other bucket was empty with nothing on its way: the home bucket, where another request may have
                // brought units meanwhile, decides last.
                ReserveOutcome last = reserveIn(home, orderId, userId, quantity, nowMs, passShown);
                return last.reservation() == Reservation.SOLD_OUT
                        ? new ReserveOutcome(Reservation.SOLD_OUT, 0, true)
                        : last;
            }
            if (borrowed.units() == 0) {
                if (++emptyRounds == BORROW_ROUNDS) {
                    break;
                }
                // Units on their way between two buckets: finish any transfer its taker left, then look again.
                finishTransfers(layout, TRANSFER_GRACE);
            }
            outcome = reserveIn(home, orderId, userId, quantity, nowMs, passShown);
        }
        return outcome;
    }

    private ReserveOutcome reserveIn(
            SkuKeys bucket, String orderId, String userId, int quantity, long nowMs, boolean passShown) {
        List<?> reply = (List<?>) lua.run(LuaScript.RESERVE, bucket.scriptKeys(),
                List.of(orderId, userId, Integer.toString(quantity), Long.toString(nowMs), flag(passShown)));
        Reservation reservation = Reservation.valueOf((String) reply.get(0));
        long value = ((Number) reply.get(1)).longValue();
        boolean lastUnits = bucket.buckets() == 1
                && (reservation == Reservation.SOLD_OUT || (reservation == Reservation.RESERVED && value == 0));
        return new ReserveOutcome(reservation, value, lastUnits);
    }

    /**
     * Units moved into {@code receiver} from the first other bucket that has some, and the units seen moving already.
     */
    private record Borrowed(long units, long moving) {}

    private Borrowed borrow(SaleLayout layout, SkuKeys receiver, long wanted) {
        int start = ThreadLocalRandom.current().nextInt(layout.buckets());
        long moving = 0;
        for (int i = 0; i < layout.buckets(); i++) {
            SkuKeys donor = layout.bucket((start + i) % layout.buckets());
            if (donor.bucket() == receiver.bucket()) {
                continue;
            }
            String transferId = Long.toHexString(ThreadLocalRandom.current().nextLong());
            List<?> out = (List<?>) lua.run(LuaScript.TRANSFER_OUT, donor.scriptKeys(),
                    List.of(transferId, Integer.toString(receiver.bucket()), Long.toString(wanted)));
            long taken = ((Number) out.get(0)).longValue();
            moving += ((Number) out.get(2)).longValue();
            if (taken > 0) {
                arrive(donor, receiver, transferId, taken, (String) out.get(1));
                return new Borrowed(taken, moving);
            }
        }
        return new Borrowed(0, moving);
    }

    /** The second step of a transfer, then its record at the donor deleted: taken again, it adds nothing. */
    private boolean arrive(SkuKeys donor, SkuKeys receiver, String transferId, long units, String generation) {
        long added = (Long) lua.run(
                LuaScript.TRANSFER_IN, receiver.scriptKeys(), List.of(transferId, Long.toString(units), generation));
        if (added < 0) {
            return false;
        }
        lua.redis().hdel(donor.outgoing(), transferId);
        return true;
    }

    /**
     * Finishes the transfers between the SKU's buckets that their takers left unfinished for {@code grace} (by each
     * donor's clock): each adds its units to its receiver once, however often it is finished, then its record goes.
     * @return how many were finished
     */
    public int finishTransfers(long skuId, Duration grace) {
        SaleLayout layout = layouts.reread(skuId);
        return layout.buckets() == 1 ? 0 : finishTransfers(layout, grace);
    }

    /**
     * {@link #state} once the transfers between the SKU's buckets left unfinished for {@code grace} are finished: what
     * a check at rest compares. A SKU of one bucket has none, and costs one call.
     */
    public RedisSkuState stateWithTransfersFinished(long skuId, Duration grace) {
        SaleLayout kept = layouts.kept(skuId);
        if (kept != null && kept.buckets() > 1) {
            finishTransfers(kept, grace);
        }
        return state(skuId);
    }

    private int finishTransfers(SaleLayout layout, Duration grace) {
        int finished = 0;
        for (SkuKeys donor : layout.all()) {
            List<?> stale = (List<?>)
                    lua.run(LuaScript.STALE_TRANSFERS, donor.scriptKeys(), List.of(Long.toString(grace.toMillis())));
            String generation = (String) stale.get(0);
            for (int i = 1; i < stale.size(); i += 2) {
                String[] entry = ((String) stale.get(i + 1)).split("\\|", -1);
                int to = Integer.parseInt(entry[0]);
                if (to < layout.buckets()
                        && arrive(
                                donor,
                                layout.bucket(to),
                                (String) stale.get(i),
                                Long.parseLong(entry[1]),
                                generation)) {
                    finished++;
                }
            }
        }
        return finished;
    }

    /**
     * Puts a reservation back into the bucket it came from (the buyer's home), at most once per order. Refused while
     * the sale is not loaded (being rebuilt: the rebuild's last step would undo it): the reservation stays in the
     * ledger, to be settled again once the sale is open (the leak sweep settles, by MySQL's decision, whatever nobody
     * settles again).
     * @return units returned, 0 if none was held, {@link #NOT_LOADED} if refused
     */
    public long release(long skuId, String orderId, String userId) {
        return (Long) onHome(skuId, userId, home -> lua.run(LuaScript.RELEASE, home.scriptKeys(), List.of(orderId)),
                reply -> (Long) reply == NOT_LOADED);
    }

    /**
     * Runs a call on the buyer's home bucket; when it finds the sale not loaded under a layout kept from before, once
     * more under the layout Redis records now, if that differs.
     */
    private Object onHome(long skuId, String userId, Function<SkuKeys, Object> call, Predicate<Object> notLoaded) {
        SaleLayout layout = layouts.of(skuId);
        Object reply = call.apply(layout.homeOf(userId));
        if (notLoaded.test(reply)) {
            SaleLayout current = layouts.reread(skuId);
            if (current.buckets() != layout.buckets()) {
                return call.apply(current.homeOf(userId));
            }
        }
        return reply;
    }

    /** The id under which an order's returned units count among the SKU's applied adjustments. */
    public static String returnId(String orderId) {
        return "return:" + orderId;
    }

    /**
     * Gives the units of an order that ended unpaid back to the sale and the buyer, at most once per order.
     * NOT_LOADED: the sale is not in Redis (being rebuilt); nothing changed, try again later.
     */
    public Returned returnUnits(long skuId, String orderId, String userId, int quantity) {
        List<?> reply = (List<?>) onHome(
                skuId,
                userId,
                home -> lua.run(
                        LuaScript.RETURN_UNITS,
                        home.scriptKeys(),
                        List.of(returnId(orderId), userId, Integer.toString(quantity))),
                answer -> "NOT_LOADED".equals(((List<?>) answer).get(0)));
        return Returned.valueOf((String) reply.get(0));
    }

    /** What {@link #returnUnits} did. */
    public enum Returned { RETURNED, ALREADY, NOT_LOADED }

    /**
     * Settles confirmed reservations, each at most once per order, in one round trip. One whose sale is not loaded
     * (being rebuilt) is refused and stays in the ledger, like {@link #release}.
     * @return how many were refused so: settle them again shortly (settling again is harmless)
     * @throws RuntimeException when any of them failed
     */
    public int confirmAll(List<OrderResult> confirmed) {
        List<Object> replies = lua.runAll(confirmed.stream()
                .map(order -> new ScriptCall(
                        LuaScript.CONFIRM,
                        layouts.of(order.skuId()).homeOf(order.userId()).scriptKeys(),
                        List.of(order.orderId())))
                .toList());
        int refused = 0;
        for (int i = 0; i < replies.size(); i++) {
            if ((Long) replies.get(i) == NOT_LOADED) {
                refused++;
                layouts.reread(confirmed.get(i).skuId());
            }
        }
        return refused;
    }

    /**
     * Loads or replaces a sale as MySQL defined it under {@code version}, its stock split over {@code buckets}, unless
     * a newer definition is loaded or undecided reservations (or units moving between buckets) forbid replacing it. A
     * sale being replaced is closed first ({@link #closeSale}), so nothing moves while its buckets are written.
     */
    public SaleLoad loadSale(
            long skuId,
            int stock,
            int buckets,
            int perUserLimit,
            long startsAtMs,
            long endsAtMs,
            long version,
            boolean passRequired) {
        SaleLayout layout = new SaleLayout(skuId, buckets);
        SaleLayout before = layouts.reread(skuId);
        if (inFlight(before) || inFlight(layout)) {
            return SaleLoad.IN_FLIGHT;
        }
        if ((Long) lua.run(
                        LuaScript.LAYOUT_PUT,
                        List.of(SkuKeys.layout(skuId)),
                        List.of(Integer.toString(buckets), Long.toString(version)))
                < 0) {
            return SaleLoad.STALE;
        }
        String generation = Long.toHexString(ThreadLocalRandom.current().nextLong());
        SaleLoad loaded = SaleLoad.LOADED;
        for (SkuKeys bucket : layout.all()) {
            SaleLoad outcome = SaleLoad.valueOf((String) lua.run(
                    LuaScript.LOAD_SALE,
                    bucket.scriptKeys(),
                    List.of(
                            Integer.toString(layout.share(stock, bucket.bucket())),
                            Integer.toString(perUserLimit),
                            Long.toString(startsAtMs),
                            Long.toString(endsAtMs),
                            Long.toString(version),
                            flag(passRequired),
                            generation)));
            if (outcome != SaleLoad.LOADED) {
                loaded = outcome;
            }
        }
        if (before.buckets() != buckets) {
            before.all().forEach(bucket -> lua.redis().del(bucket.scriptKeys().toArray(String[]::new)));
        }
        layouts.remember(layout);
        return loaded;
    }

    private boolean inFlight(SaleLayout layout) {
        return layout.all().stream().anyMatch(bucket -> {
            String pending = lua.redis().get(bucket.pending());
            return (pending != null && Long.parseLong(pending) > 0) || lua.redis().hlen(bucket.outgoing()) > 0;
        });
    }

    /**
     * How many buckets a sale of {@code stock} is split over when {@code requested} (null: this Redis's primaries
     * decide).
     */
    public int bucketsFor(Integer requested, int stock) {
        return SaleLayout.chosen(requested, stock, requested == null ? primaries() : 1);
    }

    private int primaries() {
        return RedisPrimaries.of(lua.redis()).size();
    }

    /** The SKU's layout as Redis records it now (one bucket when none is recorded). */
    public SaleLayout layout(long skuId) {
        return layouts.reread(skuId);
    }

    /** Stops selling while the sale is redefined. @return false when reservations are undecided (reopen what closed) */
    public boolean closeSale(long skuId) {
        boolean closed = true;
        for (SkuKeys bucket : layouts.reread(skuId).all()) {
            closed &= "CLOSED".equals(lua.run(LuaScript.CLOSE_SALE, bucket.scriptKeys(), List.of()));
        }
        return closed;
    }

    /** Sells a closed sale again, unchanged, if {@code version} is still the one loaded. */
    public void reopenSale(
            long skuId, int perUserLimit, long startsAtMs, long endsAtMs, long version, boolean passRequired) {
        for (SkuKeys bucket : layouts.reread(skuId).all()) {
            lua.run(
                    LuaScript.REOPEN_SALE,
                    bucket.scriptKeys(),
                    List.of(
                            Integer.toString(perUserLimit),
                            Long.toString(startsAtMs),
                            Long.toString(endsAtMs),
                            Long.toString(version),
                            flag(passRequired)));
        }
    }

    /**
     * Adds or removes free stock once per adjustment id, in the SKU's first bucket; a removal takes only free units,
     * and borrows from the other buckets what the first lacks.
     */
    public Adjusted adjustStock(long skuId, String adjustmentId, int delta) {
        SaleLayout layout = layouts.reread(skuId);
        SkuKeys first = layout.bucket(0);
        Adjusted adjusted = adjustIn(first, adjustmentId, delta);
        for (int borrowed = 0;
                adjusted.adjustment() == Adjustment.INSUFFICIENT && borrowed < layout.buckets() - 1;
                borrowed++) {
            if (borrow(layout, first, -delta - adjusted.stock()).units() == 0) {
                break;
            }
            adjusted = adjustIn(first, adjustmentId, delta);
        }
        return adjusted;
    }

    private Adjusted adjustIn(SkuKeys bucket, String adjustmentId, int delta) {
        List<?> reply = (List<?>)
                lua.run(LuaScript.ADJUST_STOCK, bucket.scriptKeys(), List.of(adjustmentId, Integer.toString(delta)));
        return new Adjusted(Adjustment.valueOf((String) reply.get(0)), ((Number) reply.get(1)).longValue());
    }

    /** Takes back an adjustment applied here (in the SKU's first bucket), once. @return whether it was applied */
    public boolean revertAdjustment(long skuId, String adjustmentId, int delta) {
        return ((Long) lua.run(LuaScript.REVERT_ADJUSTMENT, layouts.reread(skuId).bucket(0).scriptKeys(),
                List.of(adjustmentId, Integer.toString(delta)))) == 1;
    }

    /**
     * Deletes every key of the SKU's sale: for a sale that lives in Redis alone (the ingress's warm-up sale), never for
     * one MySQL holds.
     */
    public void forget(long skuId) {
        layouts.reread(skuId).all().forEach(bucket -> lua.redis().del(bucket.scriptKeys().toArray(String[]::new)));
        lua.redis().del(SkuKeys.layout(skuId));
        layouts.reread(skuId);
    }

    /**
     * A sale as MySQL holds it, with the orders still in flight: what a lost Redis is rebuilt from, into
     * {@code stockBuckets} buckets.
     */
    public record Restored(
            long skuId,
            int stock,
            int perUserLimit,
            long startsAtMs,
            long endsAtMs,
            long version,
            List<Held> inFlight,
            Map<String, Integer> bought,
            List<String> adjustmentIds,
            boolean passRequired,
            int stockBuckets) {}

    /**
     * A rebuilder's hold on one SKU's rebuild lock: its fencing token, which every step of the SKU's restore checks.
     */
    public record RebuildLease(long skuId, long token) {}

    /**
     * One rebuilder of a SKU at a time; the lock frees itself after {@code lease}, and a rebuilder that outlived it is
     * fenced off: once a later rebuilder began a bucket, its steps there write nothing ({@link #restore}).
     * @return the lease, or empty when another rebuilder holds the SKU
     */
    public Optional<RebuildLease> lockRebuild(long skuId, Duration lease) {
        SkuKeys keys = new SkuKeys(skuId);
        long token = (Long) lua.run(
                LuaScript.REBUILD_LOCK,
                List.of(keys.rebuildLock(), keys.rebuildTokens()),
                List.of(Long.toString(lease.toMillis())));
        return token == 0 ? Optional.empty() : Optional.of(new RebuildLease(skuId, token));
    }

    /** Gives the SKU's lock back, if it is still this lease's. */
    public void unlockRebuild(RebuildLease lease) {
        lua.run(
                LuaScript.REBUILD_UNLOCK,
                List.of(new SkuKeys(lease.skuId()).rebuildLock()),
                List.of(Long.toString(lease.token())));
    }

    /**
     * Closes a SKU for its rebuild: every key of its sale's buckets, as Redis records them and as {@code stockBuckets}
     * would lay them out (the record may be what was lost), is deleted, so buyers are refused (not loaded) and
     * settlements wait, until {@link #restore} opens it again; each bucket fenced to {@code lease}'s token first.
     * @throws RebuildFenced when a later rebuilder began a bucket (nothing was written there)
     */
    public void close(RebuildLease lease, int stockBuckets) {
        SaleLayout recorded = layouts.reread(lease.skuId());
        List<SkuKeys> buckets = new ArrayList<>(recorded.all());
        if (recorded.buckets() != stockBuckets) {
            buckets.addAll(new SaleLayout(lease.skuId(), stockBuckets).all());
        }
        for (SkuKeys bucket : buckets) {
            restoreStep(bucket, lease, "BEGIN", List.of());
        }
    }

    /**
     * Replaces a SKU's sale state with {@code sale}, in {@code sale.stockBuckets()} buckets: free stock = MySQL stock -
     * units in flight, split evenly; each bucket's ledger = the orders in flight of the buyers homed on it, each
     * buyer's units = decided + in flight. Written in steps, each bucket's sale last, so buyers are refused (not
     * loaded) until it is whole; each step only while the bucket's fence holds {@code lease}'s token, the layout only
     * while the lease holds the SKU's lock. The buckets of the layout it replaces are deleted.
     * @throws RebuildFenced when a later rebuilder took over: the steps written so far leave the sale not loaded
     *         (refused to buyers) for it to rebuild
     */
    public void restore(Restored sale, RebuildLease lease) {
        long sku = sale.skuId();
        if (lease.skuId() != sku) {
            throw new IllegalArgumentException("SKU " + sku + " rebuilt under SKU " + lease.skuId() + "'s lease");
        }
        SaleLayout layout = new SaleLayout(sku, sale.stockBuckets());
        close(lease, layout.buckets());
        SkuKeys home = new SkuKeys(sku);
        if ((Long) lua.run(
                        LuaScript.LAYOUT_PUT,
                        List.of(SkuKeys.layout(sku), home.rebuildLock()),
                        List.of(
                                Integer.toString(layout.buckets()),
                                Long.toString(sale.version()),
                                Long.toString(lease.token())))
                == -2) {
            throw new RebuildFenced(home, "LAYOUT");
        }
        Map<Integer, List<String>> ledgers = new HashMap<>();
        Map<Integer, Integer> pending = new HashMap<>();
        for (Held held : sale.inFlight()) {
            OrderFacts order = held.order();
            int bucket = layout.homeOf(order.userId()).bucket();
            List<String> ledger = ledgers.computeIfAbsent(bucket, _ -> new ArrayList<>());
            ledger.add(order.orderId());
            ledger.add(order.userId() + "|" + order.quantity() + "|" + held.reservedAtMs());
            pending.merge(bucket, order.quantity(), Integer::sum);
        }
        Map<Integer, List<String>> bought = new HashMap<>();
        sale.bought()
                .forEach((userId, units) -> bought.computeIfAbsent(
                                layout.homeOf(userId).bucket(), _ -> new ArrayList<>())
                        .addAll(List.of(userId, Integer.toString(units))));
        int free = Math.max(0, sale.stock() - pending.values().stream().mapToInt(Integer::intValue).sum());
        String generation = Long.toHexString(ThreadLocalRandom.current().nextLong());
        for (SkuKeys bucket : layout.all()) {
            inChunks(bucket, lease, "ADD", ledgers.getOrDefault(bucket.bucket(), List.of()), 2 * RESTORE_CHUNK);
            inChunks(bucket, lease, "BOUGHT", bought.getOrDefault(bucket.bucket(), List.of()), 2 * RESTORE_CHUNK);
            inChunks(bucket, lease, "ADJUSTED", sale.adjustmentIds(), RESTORE_CHUNK);
            restoreStep(
                    bucket,
                    lease,
                    "OPEN",
                    List.of(
                            Integer.toString(layout.share(free, bucket.bucket())),
                            Integer.toString(pending.getOrDefault(bucket.bucket(), 0)),
                            Integer.toString(sale.perUserLimit()),
                            Long.toString(sale.startsAtMs()),
                            Long.toString(sale.endsAtMs()),
                            Long.toString(sale.version()),
                            flag(sale.passRequired()),
                            generation));
        }
        layouts.remember(layout);
    }

    /** One step's values, {@code chunk} at a time (a multiple of the step's values per item). */
    private void inChunks(SkuKeys bucket, RebuildLease lease, String step, List<String> values, int chunk) {
        for (int from = 0; from < values.size(); from += chunk) {
            restoreStep(bucket, lease, step, values.subList(from, Math.min(from + chunk, values.size())));
        }
    }

    /**
     * One step of a rebuild of one bucket (restore-sale.lua), written only while its fence holds {@code lease}'s token.
     */
    void restoreStep(SkuKeys bucket, RebuildLease lease, String step, List<String> values) {
        List<String> keys = new ArrayList<>(bucket.scriptKeys());
        keys.add(bucket.rebuildFence());
        List<String> args = new ArrayList<>(List.of(Long.toString(lease.token()), step));
        args.addAll(values);
        if ((Long) lua.run(LuaScript.RESTORE_SALE, keys, args) == 0) {
            throw new RebuildFenced(bucket, step);
        }
    }

    /**
     * A rebuild step refused: the SKU's rebuild lock no longer holds the rebuilder's token (its lease ran out, another
     * took over).
     */
    public static final class RebuildFenced extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        RebuildFenced(SkuKeys bucket, String step) {
            super("rebuild of " + bucket + " stopped at " + step
                    + ": a later rebuilder took over; nothing was written");
        }
    }

    /**
     * Sets the free stock to {@code corrected}, only if it is still {@code expected} and nothing is pending. A split
     * SKU's buckets cannot all be checked in one step: its difference is added to its first bucket (borrowing there
     * first what a removal needs), only if the SKU still shows {@code expected} with nothing pending, and the first
     * bucket did not move between that look and the correction.
     * @return whether it did
     */
    public boolean correctStock(long skuId, long expected, long corrected) {
        SaleLayout layout = layouts.reread(skuId);
        SkuKeys first = layout.bucket(0);
        if (layout.buckets() == 1) {
            return correctIn(first, expected, corrected);
        }
        long difference = corrected - expected;
        long firstStock = bucketStock(first);
        for (int borrowed = 0; firstStock + difference < 0 && borrowed < layout.buckets() - 1; borrowed++) {
            if (borrow(layout, first, -difference - firstStock).units() == 0) {
                break;
            }
            firstStock = bucketStock(first);
        }
        RedisSkuState now = state(skuId);
        firstStock = bucketStock(first);
        return now.stock() == expected && now.pending() == 0 && firstStock + difference >= 0
                && correctIn(first, firstStock, firstStock + difference);
    }

    private boolean correctIn(SkuKeys bucket, long expected, long corrected) {
        return ((Long) lua.run(
                        LuaScript.CORRECT_STOCK,
                        bucket.scriptKeys(),
                        List.of(Long.toString(expected), Long.toString(corrected))))
                == 1;
    }

    private long bucketStock(SkuKeys bucket) {
        String stock = lua.redis().get(bucket.stock());
        return stock == null ? 0 : Long.parseLong(stock);
    }

    /**
     * Stock and pending units as Redis holds them now, summed over the SKU's buckets, the units moving between buckets
     * counted as free stock; -1 stock when the sale is not loaded (in any bucket).
     */
    public RedisSkuState state(long skuId) {
        SkuKeys single = new SkuKeys(skuId);
        // One read of the layout with a single bucket's stock and pending (one slot): a reservation moving units from
        // one to the other cannot fall between them, and a SKU of one bucket costs one call.
        List<String> values = lua.redis().mget(SkuKeys.layout(skuId), single.stock(), single.pending());
        SaleLayout layout = layouts.read(skuId, values.get(0));
        if (layout.buckets() == 1) {
            return new RedisSkuState(
                    values.get(1) == null ? -1 : Long.parseLong(values.get(1)),
                    values.get(2) == null ? 0 : Long.parseLong(values.get(2)));
        }
        long stock = 0;
        long pending = 0;
        boolean loaded = true;
        for (SkuKeys bucket : layout.all()) {
            // One read of both (same hash slot): two GETs could straddle a reservation moving units between them.
            List<String> figures = lua.redis().mget(bucket.stock(), bucket.pending());
            loaded &= figures.get(0) != null;
            stock += figures.get(0) == null ? 0 : Long.parseLong(figures.get(0));
            pending += figures.get(1) == null ? 0 : Long.parseLong(figures.get(1));
        }
        return new RedisSkuState(loaded ? stock + moving(layout) : -1, pending);
    }

    /** Units taken out of a bucket for another that have not arrived there yet. */
    private long moving(SaleLayout layout) {
        long moving = 0;
        for (SkuKeys donor : layout.buckets() == 1 ? List.<SkuKeys>of() : layout.all()) {
            for (Map.Entry<String, String> transfer : lua.redis().hgetAll(donor.outgoing()).entrySet()) {
                String[] entry = transfer.getValue().split("\\|", -1);
                int to = Integer.parseInt(entry[0]);
                if (to < layout.buckets() && !lua.redis().sismember(layout.bucket(to).incoming(), transfer.getKey())) {
                    moving += Long.parseLong(entry[1]);
                }
            }
        }
        return moving;
    }

    /**
     * The reservations of a SKU made before {@code cutoffMs} (by the reserving ingress's clock) and still unsettled.
     */
    public List<Held> heldSince(long skuId, long cutoffMs) {
        List<Held> held = new ArrayList<>();
        for (SkuKeys bucket : layouts.reread(skuId).all()) {
            held.addAll(heldIn(bucket, cutoffMs));
        }
        return held;
    }

    private List<Held> heldIn(SkuKeys bucket, long cutoffMs) {
        long skuId = bucket.skuId();
        String ledger = bucket.ledger();
        List<Held> held = new ArrayList<>();
        ScanParams batch = new ScanParams().count(500);
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            ScanResult<Map.Entry<String, String>> page = lua.redis().hscan(ledger, cursor, batch);
            for (Map.Entry<String, String> entry : page.getResult()) {
                Held reservation = Held.parse(skuId, entry.getKey(), entry.getValue());
                if (reservation.reservedAtMs() < cutoffMs) {
                    held.add(reservation);
                }
            }
            cursor = page.getCursor();
        } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
        return held;
    }

    /**
     * When a loaded sale sells and whether it wants a pass: what a buyer asking for a pass is answered from.
     * @return empty when no sale is loaded (being defined or restored, or none)
     */
    public Optional<SaleWindow> window(long skuId) {
        List<String> fields =
                lua.redis().hmget(layouts.of(skuId).bucket(0).sale(), "startsAt", "endsAt", "passRequired");
        if (fields.get(0) == null || fields.get(1) == null) {
            return Optional.empty();
        }
        return Optional.of(new SaleWindow(
                Long.parseLong(fields.get(0)), Long.parseLong(fields.get(1)), "1".equals(fields.get(2))));
    }

    /** A loaded sale's start and end (epoch ms) and whether buying needs a pass. */
    public record SaleWindow(long startsAtMs, long endsAtMs, boolean passRequired) {
    }

    private static String flag(boolean value) {
        return value ? "1" : "0";
    }

    /** A reservation in a SKU's ledger: {@code userId|quantity|reservedAtMs}, as the reserve script writes it. */
    public record Held(OrderFacts order, long reservedAtMs) {

        static Held parse(long skuId, String orderId, String entry) {
            int timeAt = entry.lastIndexOf('|');
            int quantityAt = entry.lastIndexOf('|', timeAt - 1);
            return new Held(
                    new OrderFacts(
                            orderId,
                            skuId,
                            entry.substring(0, quantityAt),
                            Integer.parseInt(entry.substring(quantityAt + 1, timeAt))),
                    Long.parseLong(entry.substring(timeAt + 1)));
        }
    }

    /**
     * @param stock free units, -1 when the sale is not loaded
     * @param pending units reserved but undecided
     */
    public record RedisSkuState(long stock, long pending) {
    }

    /** What the reserve script decided; {@link ReserveOutcome#value()} says what goes with each. */
    public enum Reservation {
        /** Reserved; value: the stock left. */
        RESERVED,
        /** No sale is loaded for the SKU. */
        NOT_LOADED,
        /** Value: the sale's start, epoch ms. */
        SALE_NOT_STARTED,
        /** Value: the sale's end, epoch ms. */
        SALE_ENDED,
        /** The sale wants a pass and the request showed none. */
        PASS_REQUIRED,
        /** The quantity alone exceeds the per-user limit; value: the limit. */
        QUANTITY_OVER_LIMIT,
        /** No stock left. */
        SOLD_OUT,
        /** Less stock left than asked for; value: the stock left. */
        INSUFFICIENT_STOCK,
        /** The user's units plus this quantity exceed the limit; value: the limit. */
        PURCHASE_LIMIT_REACHED,
        /** The ledger already holds a reservation under this order id. */
        DUPLICATE_ORDER
    }

    /**
     * @param soldOut whether the sale was found sold out: this refusal, or this reservation taking the last unit, with
     *                every bucket empty (what an instance may remember and answer without Redis for a while)
     */
    public record ReserveOutcome(Reservation reservation, long value, boolean soldOut) {

        /** Refused for want of stock in the bucket asked: another bucket may have some. */
        boolean isShort() {
            return reservation == Reservation.SOLD_OUT || reservation == Reservation.INSUFFICIENT_STOCK;
        }
    }

    /** What the adjust-stock script did. */
    public enum Adjustment {
        APPLIED,
        /** Applied before under this id: nothing changed. */
        ALREADY,
        /** No sale is loaded (being defined or restored): nothing changed. */
        NOT_LOADED,
        /** Fewer free units than the removal takes: nothing changed. */
        INSUFFICIENT
    }

    /** @param stock the free stock after the script */
    public record Adjusted(Adjustment adjustment, long stock) {
    }

    /** What the load-sale script did. */
    public enum SaleLoad {
        LOADED,
        /** Ignored: a newer definition is loaded. */
        STALE,
        /** Refused: reservations are still undecided, and replacing the stock under them would lose or double them. */
        IN_FLIGHT
    }
}
