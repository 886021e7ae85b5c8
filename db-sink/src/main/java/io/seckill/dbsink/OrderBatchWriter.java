package io.seckill.dbsink;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.OUTBOX;
import static io.seckill.schemas.db.Tables.SKU;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;

import io.seckill.schemas.db.tables.records.OrdersRecord;
import io.seckill.schemas.db.tables.records.UserPurchasesRecord;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.jooq.InsertValuesStep3;
import org.jooq.InsertValuesStep8;
import org.jooq.impl.DSL;

/**
 * Decides a batch of one SKU's orders in one transaction: the database's final word.
 *
 * <ol>
 *   <li>orders already decided (redelivery, relay re-send) keep their decision and are reported again;</li>
 *   <li>the per-user limit is checked against {@code user_purchases}, locked;</li>
 *   <li>stock is charged with one conditional {@code UPDATE ... WHERE stock >= total}. When the batch
 *       does not fit, the SKU row is locked and the stock handed out order by order, in arrival order;
 *       the rest are rejected SOLD_OUT;</li>
 *   <li>orders are inserted (unique order_id), purchases upserted, outbox rows marked completed.</li>
 * </ol>
 */
final class OrderBatchWriter {

    private final DSLContext dsl;
    private final Clock clock;

    OrderBatchWriter(DSLContext dsl, Clock clock) {
        this.dsl = dsl;
        this.clock = clock;
    }

    List<OrderResult> write(long skuId, List<OrderRequested> batch) {
        return dsl.transactionResult(configuration -> decide(DSL.using(configuration), skuId, batch));
    }

    private List<OrderResult> decide(DSLContext tx, long skuId, List<OrderRequested> batch) {
        // Millisecond precision, as stored: a re-reported decision is identical to the first report.
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        Map<String, OrderRequested> byId = new LinkedHashMap<>();
        batch.forEach(order -> byId.putIfAbsent(order.orderId(), order));

        List<OrderResult> results = new ArrayList<>();
        Map<String, OrdersRecord> decided = tx.selectFrom(ORDERS).where(ORDERS.ORDER_ID.in(byId.keySet())).fetchMap(ORDERS.ORDER_ID);
        decided.values().forEach(row -> results.add(resultOf(row)));
        List<OrderRequested> fresh = byId.values().stream().filter(order -> !decided.containsKey(order.orderId())).toList();
        if (fresh.isEmpty()) {
            return results;
        }

        List<OrderResult> decisions = decideFresh(tx, skuId, fresh, now);
        insertOrders(tx, fresh, decisions);
        tx.update(OUTBOX).set(OUTBOX.COMPLETED_AT, utc(now))
                .where(OUTBOX.ID.in(fresh.stream().map(OrderRequested::orderId).toList()))
                .and(OUTBOX.COMPLETED_AT.isNull())
                .execute();
        results.addAll(decisions);
        return results;
    }

    private List<OrderResult> decideFresh(DSLContext tx, long skuId, List<OrderRequested> fresh, Instant now) {
        Integer limit = tx.select(SKU.PER_USER_LIMIT).from(SKU).where(SKU.ID.eq(skuId)).fetchOne(SKU.PER_USER_LIMIT);
        if (limit == null) {
            return fresh.stream().map(order -> OrderResult.rejected(order, RejectReason.UNKNOWN_SKU, now)).toList();
        }
        Map<String, Integer> held = new HashMap<>(tx.select(USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY)
                .from(USER_PURCHASES)
                .where(USER_PURCHASES.SKU_ID.eq(skuId))
                .and(USER_PURCHASES.USER_ID.in(fresh.stream().map(OrderRequested::userId).distinct().toList()))
                .forUpdate()
                .fetchMap(USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY));

        Map<String, RejectReason> rejected = new HashMap<>();
        List<OrderRequested> withinLimit = new ArrayList<>();
        for (OrderRequested order : fresh) {
            int holds = held.getOrDefault(order.userId(), 0);
            if (holds + order.quantity() > limit) {
                rejected.put(order.orderId(), RejectReason.PURCHASE_LIMIT_REACHED);
            } else {
                held.put(order.userId(), holds + order.quantity());
                withinLimit.add(order);
            }
        }
        for (OrderRequested soldOut : chargeStock(tx, skuId, withinLimit, now)) {
            rejected.put(soldOut.orderId(), RejectReason.SOLD_OUT);
            held.merge(soldOut.userId(), -soldOut.quantity(), Integer::sum);
        }
        upsertPurchases(tx, skuId, withinLimit, rejected, held);
        return fresh.stream()
                .map(order -> rejected.containsKey(order.orderId())
                        ? OrderResult.rejected(order, rejected.get(order.orderId()), now)
                        : OrderResult.confirmed(order, now))
                .toList();
    }

    /** @return the orders that found no stock */
    private List<OrderRequested> chargeStock(DSLContext tx, long skuId, List<OrderRequested> orders, Instant now) {
        int total = orders.stream().mapToInt(OrderRequested::quantity).sum();
        if (total == 0 || decrement(tx, skuId, total, now)) {
            return List.of();
        }
        // The batch does not fit. Under the row lock, hand out what is left first come, first served.
        int left = tx.select(SKU.STOCK).from(SKU).where(SKU.ID.eq(skuId)).forUpdate().fetchSingle(SKU.STOCK);
        int granted = 0;
        List<OrderRequested> soldOut = new ArrayList<>();
        for (OrderRequested order : orders) {
            if (granted + order.quantity() <= left) {
                granted += order.quantity();
            } else {
                soldOut.add(order);
            }
        }
        if (granted > 0 && !decrement(tx, skuId, granted, now)) {
            throw new IllegalStateException("stock of SKU " + skuId + " changed under its row lock");
        }
        return soldOut;
    }

    private static boolean decrement(DSLContext tx, long skuId, int quantity, Instant now) {
        return tx.update(SKU)
                .set(SKU.STOCK, SKU.STOCK.minus(quantity))
                .set(SKU.VERSION, SKU.VERSION.plus(1))
                .set(SKU.UPDATED_AT, utc(now))
                .where(SKU.ID.eq(skuId))
                .and(SKU.STOCK.ge(quantity))
                .execute() == 1;
    }

    private static void upsertPurchases(DSLContext tx, long skuId, List<OrderRequested> withinLimit,
                                        Map<String, RejectReason> rejected, Map<String, Integer> held) {
        List<String> buyers = withinLimit.stream()
                .filter(order -> !rejected.containsKey(order.orderId()))
                .map(OrderRequested::userId)
                .distinct()
                .toList();
        if (buyers.isEmpty()) {
            return;
        }
        InsertValuesStep3<UserPurchasesRecord, Long, String, Integer> insert =
                tx.insertInto(USER_PURCHASES, USER_PURCHASES.SKU_ID, USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY);
        for (String buyer : buyers) {
            insert = insert.values(skuId, buyer, held.get(buyer));
        }
        insert.onDuplicateKeyUpdate().set(USER_PURCHASES.QUANTITY, DSL.excluded(USER_PURCHASES.QUANTITY)).execute();
    }

    /** @param decisions one per order of {@code fresh}, in the same order */
    private static void insertOrders(DSLContext tx, List<OrderRequested> fresh, List<OrderResult> decisions) {
        InsertValuesStep8<OrdersRecord, String, Long, String, Integer, String, String, LocalDateTime, LocalDateTime> insert =
                tx.insertInto(ORDERS, ORDERS.ORDER_ID, ORDERS.SKU_ID, ORDERS.USER_ID, ORDERS.QUANTITY,
                        ORDERS.STATUS, ORDERS.REASON, ORDERS.REQUESTED_AT, ORDERS.DECIDED_AT);
        for (int i = 0; i < decisions.size(); i++) {
            OrderResult result = decisions.get(i);
            insert = insert.values(result.orderId(), result.skuId(), result.userId(), result.quantity(),
                    result.status().name(), result.reason(), utc(fresh.get(i).requestedAt()), utc(result.decidedAt()));
        }
        insert.execute();
    }

    private static OrderResult resultOf(OrdersRecord row) {
        return new OrderResult(OrderResult.CURRENT_VERSION, row.getOrderId(), row.getSkuId(), row.getUserId(),
                row.getQuantity(), OrderStatus.valueOf(row.getStatus()), row.getReason(),
                row.getDecidedAt().toInstant(ZoneOffset.UTC));
    }

    private static LocalDateTime utc(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }
}
