package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * A sale with everything still in flight, read in one transaction (one consistent InnoDB snapshot):
 * what a lost Redis is rebuilt from. Read together, the stock and the open rows cannot straddle a
 * decision of the sink (which charges the stock and closes the row in one commit).
 */
public final class SaleSnapshots {

    private final Skus skus = new Skus();
    private final StockAdjustments adjustments = new StockAdjustments();
    private final OrderEvents orderEvents = new OrderEvents();

    /** An order recorded in the outbox and not decided yet. */
    public record OpenOrder(String orderId, String userId, int quantity, Instant createdAt) {
    }

    /**
     * @param purchases units each buyer holds in confirmed orders
     * @param adjustmentIds the stock adjustments the sale's stock holds
     * @param returnedOrders the cancelled and expired orders whose units the sale's stock holds again
     */
    public record SaleSnapshot(
            Skus.VersionedSale sale,
            List<OpenOrder> open,
            Map<String, Integer> purchases,
            List<String> adjustmentIds,
            List<String> returnedOrders) {}

    public Optional<SaleSnapshot> read(DSLContext db, long skuId) {
        return db.transactionResult(configuration -> {
            DSLContext tx = DSL.using(configuration);
            return skus.current(tx, skuId).map(sale -> new SaleSnapshot(sale,
                    tx.select(OUTBOX.ID, OUTBOX.USER_ID, OUTBOX.QUANTITY, OUTBOX.CREATED_AT).from(OUTBOX)
                            .where(OUTBOX.COMPLETED_AT.isNull())
                            .and(OUTBOX.AGGREGATEID.eq(Long.toString(skuId)))
                            .fetch(row -> new OpenOrder(row.value1(), row.value2(), row.value3(), row.value4())),
                    tx.select(USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY).from(USER_PURCHASES)
                            .where(USER_PURCHASES.SKU_ID.eq(skuId))
                            .fetchMap(USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY),
                    adjustments.idsOf(tx, skuId),
                    orderEvents.returnedOrders(tx, skuId)));
        });
    }
}
