package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.SKU;

import io.seckill.schemas.db.tables.records.SkuRecord;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * The owner of the {@code sku} table: a sale's definition and the stock MySQL holds, which only ever goes down through
 * a conditional charge (its CHECK keeps it from going negative besides), and back up only when an order ends unpaid.
 * Each method runs on the {@link DSLContext} it is given, so a caller's transaction can include it.
 */
public final class Skus {

    /**
     * A sale as an admin defines it; {@code passRequired}: buying needs a sale pass; {@code stockBuckets}: how many
     * buckets its stock is split over in Redis (null for a sale defined before buckets: one);
     * {@code admissionPerSecond}: how many buyers a second its waiting room admits (null: no waiting room).
     */
    public record Sale(
            long skuId,
            String name,
            int stock,
            int perUserLimit,
            Instant startsAt,
            Instant endsAt,
            boolean passRequired,
            Integer stockBuckets,
            Integer admissionPerSecond) {

        public int bucketsOrOne() {
            return stockBuckets == null ? 1 : stockBuckets;
        }
    }

    /** A sale with the version MySQL gave its latest change: Redis is loaded only with a version at least as new. */
    public record VersionedSale(Sale sale, long version) {
    }

    public Optional<VersionedSale> current(DSLContext db, long skuId) {
        return db.selectFrom(SKU).where(SKU.ID.eq(skuId)).fetchOptional(Skus::versioned);
    }

    private static VersionedSale versioned(SkuRecord row) {
        return new VersionedSale(sale(row), row.getVersion());
    }

    private static Sale sale(SkuRecord row) {
        return new Sale(
                row.getId(),
                row.getName(),
                row.getStock(),
                row.getPerUserLimit(),
                row.getStartsAt(),
                row.getEndsAt(),
                row.getPassRequired(),
                row.getStockBuckets() == null ? null : row.getStockBuckets().intValue(),
                row.getAdmissionPerSecond());
    }

    public boolean exists(DSLContext db, long skuId) {
        return db.fetchExists(SKU, SKU.ID.eq(skuId));
    }

    /**
     * Creates the sale, or replaces it with its stock reset to the new figure, unchecked: {@link SaleDefinitions}
     * checks.
     * @return whether it was created (MySQL counts an inserted row once, an updated one twice)
     */
    public boolean define(DSLContext db, Sale sale, Instant now) {
        return db.insertInto(SKU)
                .set(SKU.ID, sale.skuId()).set(SKU.NAME, sale.name())
                .set(SKU.INITIAL_STOCK, sale.stock()).set(SKU.STOCK, sale.stock())
                .set(SKU.PER_USER_LIMIT, sale.perUserLimit())
                .set(SKU.STARTS_AT, sale.startsAt()).set(SKU.ENDS_AT, sale.endsAt())
                .set(SKU.PASS_REQUIRED, sale.passRequired())
                .set(SKU.STOCK_BUCKETS, buckets(sale))
                .set(SKU.ADMISSION_PER_SECOND, sale.admissionPerSecond())
                .onDuplicateKeyUpdate()
                .set(SKU.NAME, sale.name())
                .set(SKU.INITIAL_STOCK, sale.stock()).set(SKU.STOCK, sale.stock())
                .set(SKU.PER_USER_LIMIT, sale.perUserLimit())
                .set(SKU.STARTS_AT, sale.startsAt()).set(SKU.ENDS_AT, sale.endsAt())
                .set(SKU.PASS_REQUIRED, sale.passRequired())
                .set(SKU.STOCK_BUCKETS, buckets(sale))
                .set(SKU.ADMISSION_PER_SECOND, sale.admissionPerSecond())
                .set(SKU.VERSION, SKU.VERSION.plus(1))
                .set(SKU.UPDATED_AT, now)
                .execute() == 1;
    }

    private static Short buckets(Sale sale) {
        return sale.stockBuckets() == null ? null : sale.stockBuckets().shortValue();
    }

    /** A sale as it stands: its definition with the units MySQL still holds as {@code stock}. */
    public Optional<Sale> sale(DSLContext db, long skuId) {
        return db.selectFrom(SKU).where(SKU.ID.eq(skuId)).fetchOptional(Skus::sale);
    }

    /** Units MySQL still holds; empty when the SKU does not exist. */
    public Optional<Integer> stock(DSLContext db, long skuId) {
        return db.select(SKU.STOCK).from(SKU).where(SKU.ID.eq(skuId)).fetchOptional(SKU.STOCK);
    }

    /** The sales that end after {@code since}, the earliest to start first. */
    public List<Sale> endingAfter(DSLContext db, Instant since) {
        return db.selectFrom(SKU).where(SKU.ENDS_AT.gt(since)).orderBy(SKU.STARTS_AT, SKU.ID).fetch(Skus::sale);
    }

    /** Every SKU's stock, by SKU id, in one query. */
    public Map<Long, Integer> stocks(DSLContext db) {
        return db.select(SKU.ID, SKU.STOCK).from(SKU).orderBy(SKU.ID).fetchMap(SKU.ID, SKU.STOCK);
    }

    /**
     * Every SKU's buckets in Redis, as defined (a sale defined before buckets: one): which Redis keys its sale lives
     * in.
     */
    public Map<Long, Integer> buckets(DSLContext db) {
        Map<Long, Integer> buckets = new LinkedHashMap<>();
        db.select(SKU.ID, SKU.STOCK_BUCKETS).from(SKU).orderBy(SKU.ID)
                .forEach(row -> buckets.put(row.value1(), row.value2() == null ? 1 : row.value2().intValue()));
        return buckets;
    }

    public Optional<Integer> perUserLimit(DSLContext db, long skuId) {
        return db.select(SKU.PER_USER_LIMIT).from(SKU).where(SKU.ID.eq(skuId)).fetchOptional(SKU.PER_USER_LIMIT);
    }

    /** Takes {@code quantity} units if that many are left, in one conditional UPDATE. @return whether it did */
    public boolean charge(DSLContext db, long skuId, int quantity, Instant now) {
        return db.update(SKU)
                .set(SKU.STOCK, SKU.STOCK.minus(quantity))
                .set(SKU.VERSION, SKU.VERSION.plus(1))
                .set(SKU.UPDATED_AT, now)
                .where(SKU.ID.eq(skuId))
                .and(SKU.STOCK.ge(quantity))
                .execute() == 1;
    }

    /** Puts back {@code quantity} units of an order that ended without being paid. */
    public void giveBack(DSLContext db, long skuId, int quantity, Instant now) {
        db.update(SKU)
                .set(SKU.STOCK, SKU.STOCK.plus(quantity))
                .set(SKU.VERSION, SKU.VERSION.plus(1))
                .set(SKU.UPDATED_AT, now)
                .where(SKU.ID.eq(skuId))
                .execute();
    }

    /**
     * Changes the stock and the initial stock by {@code delta} (an operator's adjustment), unless the stock would fall
     * below zero. @return whether it did
     */
    public boolean adjust(DSLContext db, long skuId, int delta, Instant now) {
        return db.update(SKU)
                .set(SKU.STOCK, SKU.STOCK.plus(delta))
                .set(SKU.INITIAL_STOCK, SKU.INITIAL_STOCK.plus(delta))
                .set(SKU.VERSION, SKU.VERSION.plus(1))
                .set(SKU.UPDATED_AT, now)
                .where(SKU.ID.eq(skuId))
                .and(SKU.STOCK.plus(delta).ge(0))
                .execute() == 1;
    }

    /** The stock under the row lock, which holds until the caller's transaction ends. */
    public int lockStock(DSLContext tx, long skuId) {
        return tx.select(SKU.STOCK).from(SKU).where(SKU.ID.eq(skuId)).forUpdate().fetchSingle(SKU.STOCK);
    }
}
