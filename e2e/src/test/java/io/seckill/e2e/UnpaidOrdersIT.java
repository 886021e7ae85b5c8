package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.USER_PURCHASES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.ingress.HttpApi.Reply;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Skus;
import io.seckill.schemas.events.OrderStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A sale of 100 units where 30% of the winners never pay: once their deadline passed (moved into the
 * past here rather than waited for), their orders expire, their units go back to both stores, and later
 * buyers buy them, until every unit is paid for. The stores agree at the end and nobody holds more than
 * the limit.
 */
@ExtendWith(Pipeline.StaysAlive.class)
class UnpaidOrdersIT {

    private static final int STOCK = 100;
    private static final int LIMIT = 2;
    private static final int MAX_ROUNDS = 12;
    private static final int MAX_BUYERS = 100_000;

    private final Pipeline pipeline = Pipeline.get();
    private final Orders orders = new Orders();

    @Test
    void unitsOfOrdersNeverPaidAreSoldAgainUntilEveryUnitIsPaid() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, STOCK, LIMIT);
        int buyer = 0;
        int expiredOrders = 0;
        Set<String> laterWinners = new HashSet<>();
        for (int round = 0; round < MAX_ROUNDS && orders.paidQuantity(pipeline.sql(), sku) < STOCK; round++) {
            List<Winner> winners = new ArrayList<>();
            Reply answer;
            do {
                String user = "unpaid-" + sku + "-" + buyer;
                answer = pipeline.http.buy(sku, user, 1 + buyer % LIMIT);
                buyer++;
                if (answer.status() == 202) {
                    winners.add(new Winner(user, answer.orderId()));
                }
                // A sold-out answer the ingress remembered from before the units came back lasts less than a second.
            } while (!("SOLD_OUT".equals(answer.code())
                            && pipeline.saleStore.state(sku).stock() == 0)
                    && buyer < MAX_BUYERS);
            if (round > 0) {
                winners.forEach(winner -> laterWinners.add(winner.orderId()));
            }
            List<Winner> confirmed = confirmedOf(winners);
            // Three of every ten winners of a round walk away without paying (the last three of each ten).
            List<Winner> neverPay = new ArrayList<>();
            for (int i = 0; i < confirmed.size(); i++) {
                Winner winner = confirmed.get(i);
                if (i % 10 >= 7) {
                    neverPay.add(winner);
                } else {
                    Reply paid = pipeline.http.pay(winner.userId(), winner.orderId(), "psp-" + winner.orderId(), null);
                    assertThat(paid.status()).as(paid.body()).isEqualTo(200);
                }
            }
            pipeline.sql().update(ORDERS).set(ORDERS.PAY_BY, Instant.now().minusMillis(1))
                    .where(ORDERS.ORDER_ID.in(neverPay.stream().map(Winner::orderId).toList())).execute();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(neverPay).allSatisfy(winner ->
                    assertThat(pipeline.http.orderStatus(winner.userId(), winner.orderId())).isEqualTo("EXPIRED")));
            expiredOrders += neverPay.size();
            // The units are back in Redis (free again to every ingress) before the next round buys.
            await().atMost(Duration.ofSeconds(30)).until(() -> agree(sku));
        }

        assertThat(orders.paidQuantity(pipeline.sql(), sku)).isEqualTo(STOCK);
        assertThat(expiredOrders).isPositive();
        assertThat(laterWinners).as("buyers after the first round bought the units that came back").isNotEmpty();
        assertThat(new Skus().stock(pipeline.sql(), sku)).contains(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> agree(sku));
        Map<String, Integer> held = pipeline.sql()
                .select(USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY)
                .from(USER_PURCHASES)
                .where(USER_PURCHASES.SKU_ID.eq(sku))
                .fetchMap(USER_PURCHASES.USER_ID, USER_PURCHASES.QUANTITY);
        assertThat(held.values()).allSatisfy(units -> assertThat(units).isBetween(0, LIMIT));
        assertThat(held.keySet())
                .allSatisfy(user -> assertThat(pipeline.probe.heldBy(sku, user))
                        .isEqualTo(held.get(user).longValue()));
        assertThat(pipeline.http.buy(sku, "unpaid-" + sku + "-late", 1).code()).isEqualTo("SOLD_OUT");
    }

    /** The winners whose orders MySQL confirmed, once every one of them is decided. */
    private List<Winner> confirmedOf(List<Winner> winners) {
        await().atMost(Duration.ofSeconds(60)).until(() -> winners.stream()
                .noneMatch(winner -> "PENDING".equals(pipeline.http.orderStatus(winner.userId(), winner.orderId()))));
        return winners.stream()
                .filter(winner -> orders.stored(pipeline.sql(), winner.orderId())
                                .orElseThrow()
                                .status()
                        == OrderStatus.CONFIRMED)
                .toList();
    }

    /** Redis stock + pending == MySQL stock, nothing on its way. */
    private boolean agree(long sku) {
        var redis = pipeline.saleStore.state(sku);
        return redis.pending() == 0 && redis.stock() == new Skus().stock(pipeline.sql(), sku).orElseThrow();
    }

    private record Winner(String userId, String orderId) {
    }
}
