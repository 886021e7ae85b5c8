package io.seckill.redisstate;

import io.seckill.schemas.events.OrderResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * A SKU's sale state in Redis, changed only through the Lua scripts of {@link LuaScript}, so every
 * change is one atomic step. Each script's reply is parsed here, once, into a type.
 */
public final class SaleStore {

    private static final int RESTORE_CHUNK = 1_000;
    /** What {@link #release} and {@link #confirmAll} answer for a reservation whose sale is not loaded: nothing changed. */
    public static final long NOT_LOADED = -1;

    private final LuaRunner lua;

    public SaleStore(LuaRunner lua) {
        this.lua = lua;
    }

    /** One atomic decision: sale loaded and open, quantity within the limit, stock, user's limit, then reserve. */
    public ReserveOutcome reserve(long skuId, String orderId, String userId, int quantity, long nowMs, boolean passShown) {
        List<?> reply = (List<?>) run(LuaScript.RESERVE, skuId, orderId, userId, Integer.toString(quantity), Long.toString(nowMs), flag(passShown));
        return new ReserveOutcome(Reservation.valueOf((String) reply.get(0)), ((Number) reply.get(1)).longValue());
    }

    /**
     * Puts a reservation back, at most once per order. Refused while the sale is not loaded (being rebuilt: the
     * rebuild's last step would undo it): the reservation stays in the ledger, to be settled again once the sale is open
     * (the leak sweep settles, by MySQL's decision, whatever nobody settles again).
     * @return units returned, 0 if none was held, {@link #NOT_LOADED} if refused
     */
    public long release(long skuId, String orderId) {
        return (Long) run(LuaScript.RELEASE, skuId, orderId);
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
        List<?> reply = (List<?>) run(LuaScript.RETURN_UNITS, skuId, returnId(orderId), userId, Integer.toString(quantity));
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
        return (int) lua.runAll(confirmed.stream()
                .map(order -> new ScriptCall(LuaScript.CONFIRM, new SkuKeys(order.skuId()).scriptKeys(), List.of(order.orderId())))
                .toList()).stream().filter(reply -> (Long) reply == NOT_LOADED).count();
    }

    /**
     * Loads or replaces a sale as MySQL defined it under {@code version}, unless a newer definition is
     * loaded or undecided reservations forbid replacing it.
     */
    public SaleLoad loadSale(long skuId, int stock, int perUserLimit, long startsAtMs, long endsAtMs, long version, boolean passRequired) {
        return SaleLoad.valueOf((String) run(LuaScript.LOAD_SALE, skuId, Integer.toString(stock), Integer.toString(perUserLimit),
                Long.toString(startsAtMs), Long.toString(endsAtMs), Long.toString(version), flag(passRequired)));
    }

    /** Stops selling while the sale is redefined. @return false when reservations are undecided (nothing changed) */
    public boolean closeSale(long skuId) {
        return "CLOSED".equals(run(LuaScript.CLOSE_SALE, skuId));
    }

    /** Sells a closed sale again, unchanged, if {@code version} is still the one loaded. */
    public void reopenSale(long skuId, int perUserLimit, long startsAtMs, long endsAtMs, long version, boolean passRequired) {
        run(LuaScript.REOPEN_SALE, skuId, Integer.toString(perUserLimit), Long.toString(startsAtMs), Long.toString(endsAtMs),
                Long.toString(version), flag(passRequired));
    }

    /** Adds or removes free stock once per adjustment id; a removal takes only free units. */
    public Adjusted adjustStock(long skuId, String adjustmentId, int delta) {
        List<?> reply = (List<?>) run(LuaScript.ADJUST_STOCK, skuId, adjustmentId, Integer.toString(delta));
        return new Adjusted(Adjustment.valueOf((String) reply.get(0)), ((Number) reply.get(1)).longValue());
    }

    /** Takes back an adjustment applied here, once. @return whether it was applied */
    public boolean revertAdjustment(long skuId, String adjustmentId, int delta) {
        return ((Long) run(LuaScript.REVERT_ADJUSTMENT, skuId, adjustmentId, Integer.toString(delta))) == 1;
    }

    /** Deletes every key of the SKU's sale: for a sale that lives in Redis alone (the ingress's warm-up sale), never for one MySQL holds. */
    public void forget(long skuId) {
        lua.redis().del(new SkuKeys(skuId).scriptKeys().toArray(String[]::new));
    }

    /** A sale as MySQL holds it, with the orders still in flight: what a lost Redis is rebuilt from. */
    public record Restored(long skuId, int stock, int perUserLimit, long startsAtMs, long endsAtMs, long version, List<Held> inFlight,
                           Map<String, Integer> bought, List<String> adjustmentIds, boolean passRequired) {
    }

    /** A rebuilder's hold on one SKU's rebuild lock: its fencing token, which every step of the SKU's restore checks. */
    public record RebuildLease(long skuId, long token) {
    }

    /**
     * One rebuilder of a SKU at a time; the lock frees itself after {@code lease}, and a rebuilder that outlived it is
     * fenced off: its steps write nothing ({@link #restore}). The lock lives in the SKU's slot, beside what it guards.
     * @return the lease, or empty when another rebuilder holds the SKU
     */
    public Optional<RebuildLease> lockRebuild(long skuId, Duration lease) {
        SkuKeys keys = new SkuKeys(skuId);
        long token = (Long) lua.run(LuaScript.REBUILD_LOCK, List.of(keys.rebuildLock(), keys.rebuildTokens()), List.of(Long.toString(lease.toMillis())));
        return token == 0 ? Optional.empty() : Optional.of(new RebuildLease(skuId, token));
    }

    /** Gives the SKU's lock back, if it is still this lease's. */
    public void unlockRebuild(RebuildLease lease) {
        lua.run(LuaScript.REBUILD_UNLOCK, List.of(new SkuKeys(lease.skuId()).rebuildLock()), List.of(Long.toString(lease.token())));
    }

    /**
     * Closes a SKU for its rebuild: every key of its sale is deleted, so buyers are refused (not loaded) and settlements
     * wait, until {@link #restore} opens it again; only while {@code lease} holds the SKU's lock.
     * @throws RebuildFenced when the lock is no longer the lease's (nothing was written)
     */
    public void close(RebuildLease lease) {
        restoreStep(lease.skuId(), lease, "BEGIN", List.of());
    }

    /**
     * Replaces a SKU's sale state with {@code sale}: free stock = MySQL stock - units in flight, the ledger
     * = the orders in flight, each buyer's units = decided + in flight. Written in steps, the sale last,
     * so buyers are refused (not loaded) until it is whole; each step only while {@code lease} holds the SKU's lock.
     * @throws RebuildFenced when the lock is no longer the lease's: the steps written so far leave the sale not
     *         loaded (refused to buyers) for the lock's holder to rebuild
     */
    public void restore(Restored sale, RebuildLease lease) {
        long sku = sale.skuId();
        if (lease.skuId() != sku) {
            throw new IllegalArgumentException("SKU " + sku + " rebuilt under SKU " + lease.skuId() + "'s lease");
        }
        restoreStep(sku, lease, "BEGIN", List.of());
        for (int from = 0; from < sale.inFlight().size(); from += RESTORE_CHUNK) {
            List<String> values = new ArrayList<>();
            for (Held order : sale.inFlight().subList(from, Math.min(from + RESTORE_CHUNK, sale.inFlight().size()))) {
                values.add(order.orderId());
                values.add(order.userId() + "|" + order.quantity() + "|" + order.reservedAtMs());
            }
            restoreStep(sku, lease, "ADD", values);
        }
        List<Map.Entry<String, Integer>> bought = List.copyOf(sale.bought().entrySet());
        for (int from = 0; from < bought.size(); from += RESTORE_CHUNK) {
            List<String> values = new ArrayList<>();
            for (Map.Entry<String, Integer> buyer : bought.subList(from, Math.min(from + RESTORE_CHUNK, bought.size()))) {
                values.add(buyer.getKey());
                values.add(Integer.toString(buyer.getValue()));
            }
            restoreStep(sku, lease, "BOUGHT", values);
        }
        for (int from = 0; from < sale.adjustmentIds().size(); from += RESTORE_CHUNK) {
            restoreStep(sku, lease, "ADJUSTED", sale.adjustmentIds().subList(from, Math.min(from + RESTORE_CHUNK, sale.adjustmentIds().size())));
        }
        int pending = sale.inFlight().stream().mapToInt(Held::quantity).sum();
        restoreStep(sku, lease, "OPEN", List.of(Integer.toString(Math.max(0, sale.stock() - pending)), Integer.toString(pending),
                Integer.toString(sale.perUserLimit()), Long.toString(sale.startsAtMs()), Long.toString(sale.endsAtMs()), Long.toString(sale.version()), flag(sale.passRequired())));
    }

    /** One step of a rebuild (restore-sale.lua), written only while {@code lease} holds the rebuild lock. */
    void restoreStep(long skuId, RebuildLease lease, String step, List<String> values) {
        List<String> keys = new ArrayList<>(new SkuKeys(skuId).scriptKeys());
        keys.add(new SkuKeys(skuId).rebuildLock());
        List<String> args = new ArrayList<>(List.of(Long.toString(lease.token()), step));
        args.addAll(values);
        if ((Long) lua.run(LuaScript.RESTORE_SALE, keys, args) == 0) {
            throw new RebuildFenced(skuId, step);
        }
    }

    /** A rebuild step refused: the SKU's rebuild lock no longer holds the rebuilder's token (its lease ran out, another took over). */
    public static final class RebuildFenced extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        RebuildFenced(long skuId, String step) {
            super("rebuild of SKU " + skuId + " stopped at " + step + ": the rebuild lock is no longer this rebuilder's; nothing was written");
        }
    }

    /**
     * Sets the free stock to {@code corrected}, only if it is still {@code expected} and nothing is pending.
     * @return whether it did
     */
    public boolean correctStock(long skuId, long expected, long corrected) {
        return ((Long) run(LuaScript.CORRECT_STOCK, skuId, Long.toString(expected), Long.toString(corrected))) == 1;
    }

    /** Stock and pending units as Redis holds them now; -1 stock when the sale is not loaded. */
    public RedisSkuState state(long skuId) {
        SkuKeys keys = new SkuKeys(skuId);
        // One read of both (same hash slot): two GETs could straddle a reservation moving units between them.
        List<String> values = lua.redis().mget(keys.stock(), keys.pending());
        String stock = values.get(0);
        String pending = values.get(1);
        return new RedisSkuState(stock == null ? -1 : Long.parseLong(stock), pending == null ? 0 : Long.parseLong(pending));
    }

    /** The reservations of a SKU made before {@code cutoffMs} (by the reserving ingress's clock) and still unsettled. */
    public List<Held> heldSince(long skuId, long cutoffMs) {
        String ledger = new SkuKeys(skuId).ledger();
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
        List<String> fields = lua.redis().hmget(new SkuKeys(skuId).sale(), "startsAt", "endsAt", "passRequired");
        if (fields.get(0) == null || fields.get(1) == null) {
            return Optional.empty();
        }
        return Optional.of(new SaleWindow(Long.parseLong(fields.get(0)), Long.parseLong(fields.get(1)), "1".equals(fields.get(2))));
    }

    /** A loaded sale's start and end (epoch ms) and whether buying needs a pass. */
    public record SaleWindow(long startsAtMs, long endsAtMs, boolean passRequired) {
    }

    private static String flag(boolean value) {
        return value ? "1" : "0";
    }

    private Object run(LuaScript script, long skuId, String... args) {
        return lua.run(script, new SkuKeys(skuId).scriptKeys(), List.of(args));
    }

    /** A reservation in a SKU's ledger: {@code userId|quantity|reservedAtMs}, as the reserve script writes it. */
    public record Held(long skuId, String orderId, String userId, int quantity, long reservedAtMs) {

        static Held parse(long skuId, String orderId, String entry) {
            int timeAt = entry.lastIndexOf('|');
            int quantityAt = entry.lastIndexOf('|', timeAt - 1);
            return new Held(skuId, orderId, entry.substring(0, quantityAt), Integer.parseInt(entry.substring(quantityAt + 1, timeAt)),
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

    public record ReserveOutcome(Reservation reservation, long value) {
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
