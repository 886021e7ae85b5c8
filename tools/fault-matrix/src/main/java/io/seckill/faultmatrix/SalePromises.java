package io.seckill.faultmatrix;

import static io.seckill.schemas.db.Tables.ORDERS;

import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.SaleStore;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * The brief's promises, checked on one sale at rest from what the servers hold and what the buyers were
 * told. Each broken promise is named with the orders or SKUs that broke it.
 */
final class SalePromises {

    /** A broken promise: which one ({@code P1} ...), and the orders or SKU and what was found. */
    record Violation(String promise, String detail) {
        @Override
        public String toString() {
            return promise + ": " + detail;
        }
    }

    /** A sale of the run: its SKUs with their first stock, and the per-user limit of each. */
    record Sale(Map<Long, Integer> stocks, int perUserLimit) {
        List<Long> skus() {
            return List.copyOf(stocks.keySet());
        }
    }

    private SalePromises() {
    }

    static List<Violation> check(FaultCluster cluster, Sale sale, List<Buyers.Answer> answers) {
        DSLContext db = cluster.database().dsl();
        SaleStore redis = SaleAtRest.saleStore(cluster);
        Orders orders = new Orders();
        List<Violation> broken = new ArrayList<>();
        sale.stocks().forEach((sku, initial) -> {
            long confirmed = orders.confirmedQuantity(db, sku);
            int mysqlStock = new Skus().stock(db, sku).orElseThrow();
            SaleStore.RedisSkuState inRedis = redis.state(sku);
            long ledger = redis.layout(sku).all().stream()
                    .mapToLong(bucket -> cluster.redis().hlen(bucket.ledger()))
                    .sum();
            if (confirmed > initial) {
                broken.add(new Violation("P1", "SKU " + sku + ": " + confirmed + " units confirmed of " + initial));
            }
            if (mysqlStock + confirmed != initial) {
                broken.add(new Violation(
                        "P4",
                        "SKU " + sku + ": MySQL stock " + mysqlStock + " + confirmed " + confirmed + " != " + initial));
            }
            if (ledger != 0) {
                broken.add(new Violation(
                        "P4", "SKU " + sku + ": " + ledger + " reservation(s) still in the Redis ledger at rest"));
            }
            if (inRedis.stock() != mysqlStock || inRedis.pending() != 0) {
                broken.add(new Violation(
                        "P5",
                        "SKU " + sku + ": Redis stock " + inRedis.stock() + " pending " + inRedis.pending()
                                + ", MySQL stock " + mysqlStock));
            }
        });
        db.select(ORDERS.SKU_ID, ORDERS.USER_ID, DSL.sum(ORDERS.QUANTITY))
                .from(ORDERS)
                .where(ORDERS.SKU_ID.in(sale.skus()))
                .and(ORDERS.STATUS.in(OrderStatus.CONFIRMED, OrderStatus.PAID))
                .groupBy(ORDERS.SKU_ID, ORDERS.USER_ID)
                .having(DSL.sum(ORDERS.QUANTITY).gt(java.math.BigDecimal.valueOf(sale.perUserLimit())))
                .forEach(row -> broken.add(new Violation(
                        "P2",
                        "SKU " + row.value1() + ": buyer " + row.value2() + " holds " + row.value3()
                                + " units, the limit is " + sale.perUserLimit())));
        List<String> accepted = answers.stream().filter(Buyers.Answer::accepted).map(Buyers.Answer::orderId).toList();
        Set<String> decided = SaleAtRest.decided(db, accepted);
        accepted.stream()
                .filter(orderId -> !decided.contains(orderId))
                .forEach(orderId -> broken.add(
                        new Violation("P3", "order " + orderId + " was accepted (202) and has no final word")));
        broken.addAll(answersAgreeWithFates(db, answers));
        return broken;
    }

    /**
     * P7, per request: a 202 names the one order made under its key; a refusal leaves nothing under its key that
     * holds stock or is still to be decided. Answers that say nothing yet (no answer, a 503, still in progress) are
     * judged by what a retry with the key learned ({@link Buyers#learnTheTruth}).
     */
    private static List<Violation> answersAgreeWithFates(DSLContext db, List<Buyers.Answer> answers) {
        OutboxLookups outbox = new OutboxLookups();
        Orders orders = new Orders();
        List<Violation> broken = new ArrayList<>();
        for (Buyers.Answer answer : answers) {
            if (answer.idempotencyKey() == null || !answer.definitive()) {
                continue;
            }
            Optional<String> underKey = outbox.orderForKey(db, answer.userId(), answer.idempotencyKey())
                    .map(OutboxLookups.KeyedOrder::orderId);
            if (answer.accepted()) {
                if (underKey.isPresent() && !underKey.get().equals(answer.orderId())) {
                    broken.add(new Violation(
                            "P7",
                            "buyer " + answer.userId() + " was told order " + answer.orderId() + ", but key "
                                    + answer.idempotencyKey() + " recorded order " + underKey.get()));
                }
            } else if (underKey.isPresent()) {
                OrderResult fate = orders.decided(db, List.of(underKey.get())).get(underKey.get());
                if (fate == null || fate.status() != OrderStatus.REJECTED) {
                    broken.add(new Violation(
                            "P7",
                            "buyer " + answer.userId() + " was told " + answer.status() + ", but holds order "
                                    + underKey.get() + " (" + (fate == null ? "undecided" : fate.status()) + ")"));
                }
            }
        }
        return broken;
    }
}
