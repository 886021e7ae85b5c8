package io.seckill.redisstate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts that change Redis state. The KEYS and ARGV each expects are documented at the top of
 * its file under {@code redis/}; the SKU scripts take {@link SkuKeys#scriptKeys()}.
 */
enum LuaScript {
    /** ARGV orderId, userId, quantity, nowMs, passShown. Returns {RESERVED or the refusal code, value}. */
    RESERVE("reserve.lua"),
    /** ARGV orderId. Returns the quantity put back, or 0 when the order holds no reservation. */
    RELEASE("release.lua"),
    /** ARGV orderId. Returns the quantity settled, or 0 when the order holds no reservation. */
    CONFIRM("confirm.lua"),
    /**
     * ARGV stock, perUserLimit, startsAtMs, endsAtMs, version, passRequired, generation. Returns LOADED, STALE or
     * IN_FLIGHT.
     */
    LOAD_SALE("load-sale.lua"),
    /** Returns CLOSED or IN_FLIGHT. */
    CLOSE_SALE("close-sale.lua"),
    /** ARGV perUserLimit, startsAtMs, endsAtMs, version. Returns 1 when reopened. */
    REOPEN_SALE("reopen-sale.lua"),
    /** ARGV adjustmentId, delta. Returns {APPLIED or ALREADY or NOT_LOADED or INSUFFICIENT, stock}. */
    ADJUST_STOCK("adjust-stock.lua"),
    /** ARGV adjustmentId, delta. Returns 1 when reverted. */
    REVERT_ADJUSTMENT("revert-adjustment.lua"),
    /** ARGV returnId, userId, quantity. Returns {RETURNED or ALREADY or NOT_LOADED, stock}. */
    RETURN_UNITS("return-units.lua"),
    /**
     * KEYS the bucket's and the rebuild lock; ARGV the rebuilder's token, a step (BEGIN, ADD, BOUGHT, ADJUSTED, OPEN)
     * and its values. Returns 1, or 0 when fenced.
     */
    RESTORE_SALE("restore-sale.lua"),
    /** KEYS the rebuild lock and its token counter; ARGV leaseMs. Returns the token, or 0 when held by another. */
    REBUILD_LOCK("rebuild-lock.lua"),
    /** KEYS the rebuild lock (or the rebuild request); ARGV token (or request id). Returns 1 when deleted. */
    REBUILD_UNLOCK("rebuild-unlock.lua"),
    /**
     * ARGV transferId, receiving bucket, units wanted. Returns {units taken, the donor's generation, units moving out
     * of it already}.
     */
    TRANSFER_OUT("transfer-out.lua"),
    /**
     * ARGV transferId, units, the donor's generation. Returns 1 when added, 0 when added before, -1 not loaded, -2
     * another generation.
     */
    TRANSFER_IN("transfer-in.lua"),
    /**
     * ARGV graceMs. Returns {the bucket's generation, then transferId and entry of each transfer out older than the
     * grace}.
     */
    STALE_TRANSFERS("stale-transfers.lua"),
    /**
     * KEYS the SKU's layout; ARGV buckets, version. Returns the bucket count recorded before, or -1 when a newer layout
     * stays.
     */
    LAYOUT_PUT("layout-put.lua"),
    /**
     * ARGV expected stock, corrected stock. Returns 1 when corrected, 0 when the stock moved or a reservation is
     * pending.
     */
    CORRECT_STOCK("correct-stock.lua"),
    /**
     * KEYS one bucket's queue and queue counts; ARGV userId, "pre" or "arrived", ttlMs. Returns {1 when joined now,
     * the buyer's place in the bucket (0: the pre-queue)}.
     */
    QUEUE_JOIN("queue-join.lua"),
    /**
     * KEYS the SKU's room; ARGV ttlMs, version, rate (0: no room), startsAtMs, endsAtMs, buckets. Returns 1 when set,
     * 0 when a newer definition's room stays.
     */
    ROOM_DEFINE("room-define.lua"),
    /**
     * KEYS the SKU's room; ARGV nowMs, the highest place issued (in thousandths). Returns {rate, admitted in
     * thousandths}, or {0, 0} for no room.
     */
    ROOM_ADVANCE("room-advance.lua"),
    /** One hash's fields and expiry together. */
    HASH_PUT("hash-put.lua"),
    /** KEYS one rate-limit counter; ARGV limit, windowMs. Returns {waitMs, the value stored when admitted}. */
    RATE_LIMIT("rate-limit.lua"),
    /**
     * KEYS one rate-limit counter; ARGV the value a request stored, limit, windowMs. Returns 1 when its cell was given
     * back.
     */
    RATE_REFUND("rate-refund.lua"),
    /**
     * ARGV fingerprint, leaseMs, owner token, keepMs. First claim of an idempotency key, a takeover of a lapsed one, or
     * the stored outcome.
     */
    IDEMPOTENCY_CLAIM("idempotency-claim.lua"),
    /** ARGV owner token, keepMs, the reply's fields. Returns 1 when stored, 0 when the claim was taken over. */
    IDEMPOTENCY_COMPLETE("idempotency-complete.lua"),
    /** ARGV owner token. Returns 1 when freed, 0 when the claim was taken over. */
    IDEMPOTENCY_ABANDON("idempotency-abandon.lua");

    private final String source;

    LuaScript(String file) {
        try (InputStream in = LuaScript.class.getResourceAsStream("/redis/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing Lua resource redis/" + file);
            }
            this.source = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String source() {
        return source;
    }
}
