package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.STOCK_ADJUSTMENTS;

import io.seckill.schemas.db.tables.records.StockAdjustmentsRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The owner of {@code stock_adjustments}: stock added to or removed from a live sale, each recorded
 * once under its id, together with the change of the SKU's stock (and initial stock) in MySQL.
 */
public final class StockAdjustments {

    private final Skus skus = new Skus();

    /** One adjustment; {@code inRedis} once Redis has it too. */
    public record Adjustment(String adjustmentId, long skuId, int delta, String reason, boolean inRedis) {
    }

    /** What recording an adjustment did. */
    public enum Recording {
        /** Recorded now, the SKU's stock changed. */
        RECORDED,
        /** Recorded before under the same id with the same SKU and delta: nothing changed. */
        REPLAYED,
        /** The id was recorded before for another SKU or delta: nothing changed. */
        ID_REUSED,
        /** The SKU does not exist. */
        UNKNOWN_SKU,
        /** MySQL holds fewer units than the adjustment removes. */
        NOT_ENOUGH_STOCK
    }

    /** @param adjustment as recorded (the earlier one when replayed or reused) */
    public record Recorded(Recording recording, Optional<Adjustment> adjustment) {
    }

    /**
     * Records the adjustment and changes the SKU's stock and initial stock by its delta, in one
     * transaction, unless its id is known (then nothing changes).
     * @param inRedis whether Redis already has it (removals are taken from Redis first)
     */
    public Recorded record(DSLContext db, Adjustment adjustment, boolean inRedis, Instant now) {
        return db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            Optional<Adjustment> earlier = find(tx, adjustment.adjustmentId());
            if (earlier.isPresent()) {
                boolean same = earlier.get().skuId() == adjustment.skuId()
                        && earlier.get().delta() == adjustment.delta();
                return new Recorded(same ? Recording.REPLAYED : Recording.ID_REUSED, earlier);
            }
            if (!skus.exists(tx, adjustment.skuId())) {
                return new Recorded(Recording.UNKNOWN_SKU, Optional.empty());
            }
            boolean changed = skus.adjust(tx, adjustment.skuId(), adjustment.delta(), now);
            if (!changed) {
                return new Recorded(Recording.NOT_ENOUGH_STOCK, Optional.empty());
            }
            tx.insertInto(STOCK_ADJUSTMENTS)
                    .set(STOCK_ADJUSTMENTS.ADJUSTMENT_ID, adjustment.adjustmentId())
                    .set(STOCK_ADJUSTMENTS.SKU_ID, adjustment.skuId())
                    .set(STOCK_ADJUSTMENTS.DELTA, adjustment.delta())
                    .set(STOCK_ADJUSTMENTS.REASON, adjustment.reason())
                    .set(STOCK_ADJUSTMENTS.IN_REDIS, inRedis)
                    .execute();
            return new Recorded(
                    Recording.RECORDED,
                    Optional.of(new Adjustment(
                            adjustment.adjustmentId(),
                            adjustment.skuId(),
                            adjustment.delta(),
                            adjustment.reason(),
                            inRedis)));
        });
    }

    public Optional<Adjustment> find(DSLContext db, String adjustmentId) {
        return db.selectFrom(STOCK_ADJUSTMENTS)
                .where(STOCK_ADJUSTMENTS.ADJUSTMENT_ID.eq(adjustmentId))
                .fetchOptional(StockAdjustments::of);
    }

    public void markInRedis(DSLContext db, String adjustmentId) {
        db.update(STOCK_ADJUSTMENTS)
                .set(STOCK_ADJUSTMENTS.IN_REDIS, true)
                .where(STOCK_ADJUSTMENTS.ADJUSTMENT_ID.eq(adjustmentId))
                .execute();
    }

    /**
     * Adjustments recorded at least {@code olderThan} ago that Redis does not have yet, oldest first. Their age is
     * judged on MySQL's clock, the one that stamped them.
     */
    public List<Adjustment> notInRedis(DSLContext db, Duration olderThan, int limit) {
        return db.selectFrom(STOCK_ADJUSTMENTS)
                .where(STOCK_ADJUSTMENTS.IN_REDIS.isFalse())
                .and(DSL.condition(
                        "{0} <= NOW(3) - INTERVAL {1} MICROSECOND",
                        STOCK_ADJUSTMENTS.CREATED_AT, DSL.val(olderThan.toNanos() / 1_000)))
                .orderBy(STOCK_ADJUSTMENTS.CREATED_AT)
                .limit(limit)
                .fetch(StockAdjustments::of);
    }

    /** Per SKU, the units MySQL added that Redis has not taken yet (removals are taken from Redis first). */
    public Map<Long, Integer> additionsNotInRedis(DSLContext db) {
        return db.select(STOCK_ADJUSTMENTS.SKU_ID, DSL.sum(STOCK_ADJUSTMENTS.DELTA))
                .from(STOCK_ADJUSTMENTS)
                .where(STOCK_ADJUSTMENTS.IN_REDIS.isFalse())
                .and(STOCK_ADJUSTMENTS.DELTA.gt(0))
                .groupBy(STOCK_ADJUSTMENTS.SKU_ID)
                .fetchMap(STOCK_ADJUSTMENTS.SKU_ID, row -> row.value2().intValue());
    }

    /** The ids of every adjustment of a SKU: all of them are part of its MySQL stock. */
    public List<String> idsOf(DSLContext db, long skuId) {
        return db.select(STOCK_ADJUSTMENTS.ADJUSTMENT_ID)
                .from(STOCK_ADJUSTMENTS)
                .where(STOCK_ADJUSTMENTS.SKU_ID.eq(skuId))
                .fetch(STOCK_ADJUSTMENTS.ADJUSTMENT_ID);
    }

    private static Adjustment of(StockAdjustmentsRecord row) {
        return new Adjustment(row.getAdjustmentId(), row.getSkuId(), row.getDelta(), row.getReason(), row.getInRedis());
    }
}
