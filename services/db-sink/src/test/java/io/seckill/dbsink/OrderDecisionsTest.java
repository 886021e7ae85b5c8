package io.seckill.dbsink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.mysqlstate.OrderBatchWriter;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.RejectReason;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.exception.DataAccessException;
import org.junit.jupiter.api.Test;

/** Which failures are retried, which narrowed down to the order, and which dead-letter it: the sorting alone. */
class OrderDecisionsTest {

    private static final long SKU = 7;
    private final OrderRequested good = order("good");
    private final OrderRequested odd = order("odd");
    private final Map<String, Integer> attempts = new ConcurrentHashMap<>();
    private final List<String> deadLettered = new ArrayList<>();

    @Test
    void aFailureThatIsNoDatabaseErrorIsTriedAFewTimesThenDeadLetteredWhileTheOthersAreDecided() throws Exception {
        OrderDecisions decisions =
                new OrderDecisions(failingFor(odd, new IllegalStateException("unexpected state")), 3, Duration.ZERO);

        List<OrderResult> results = decisions.decide(SKU, List.of(good, odd), this::deadLetter).decided();

        assertThat(results).extracting(OrderResult::orderId).containsExactly(good.orderId(), odd.orderId());
        assertThat(results.get(1).reason())
                .as("given up on by the sink, which saw it fail")
                .isEqualTo(RejectReason.DEAD_LETTERED);
        assertThat(deadLettered).containsExactly(odd.orderId() + ": unexpected state");
        assertThat(attempts.get(odd.orderId())).isEqualTo(1 + 3);
    }

    @Test
    void wrongDataIsDeadLetteredAtOnce() throws Exception {
        OrderDecisions decisions = new OrderDecisions(
                failingFor(odd, sqlFailure(new SQLDataException("Data too long", "22001", 1406))), 3, Duration.ZERO);

        List<OrderResult> results = decisions.decide(SKU, List.of(good, odd), this::deadLetter).decided();

        assertThat(results).extracting(OrderResult::orderId).containsExactly(good.orderId(), odd.orderId());
        assertThat(deadLettered).hasSize(1);
        assertThat(attempts.get(odd.orderId())).isEqualTo(1 + 1);
    }

    @Test
    void aDatabaseThatCannotWorkIsThrownForTheLoopToRetryAndNothingIsDeadLettered() {
        DataAccessException readOnly =
                sqlFailure(new SQLException("The server is running with the --read-only option", "HY000", 1290));
        DataAccessException interrupted =
                sqlFailure(new SQLException("Query execution was interrupted", "70100", 1317));
        for (DataAccessException failure : List.of(readOnly, interrupted)) {
            OrderDecisions decisions = new OrderDecisions(failingFor(odd, failure), 3, Duration.ZERO);

            assertThatThrownBy(() -> decisions.decide(SKU, List.of(good, odd), this::deadLetter)).isSameAs(failure);
        }
        assertThat(deadLettered).isEmpty();
    }

    /**
     * A writer that decides every order (confirmed) unless the batch holds {@code failing}, which fails with {@code
     * failure}.
     */
    private OrderDecisions.Writer failingFor(OrderRequested failing, RuntimeException failure) {
        return new OrderDecisions.Writer() {
            @Override
            public OrderBatchWriter.SkuDecisions write(long skuId, List<OrderRequested> orders) {
                orders.forEach(order -> attempts.merge(order.orderId(), 1, Integer::sum));
                if (orders.contains(failing)) {
                    throw failure;
                }
                return new OrderBatchWriter.SkuDecisions(
                        orders.stream()
                                .map(order -> OrderResult.confirmed(order, Instant.now()))
                                .toList(),
                        List.of());
            }

            @Override
            public Optional<OrderResult> rejectUndecidable(OrderRequested failed) {
                return Optional.of(OrderResult.rejected(failed, RejectReason.DEAD_LETTERED, Instant.now()));
            }
        };
    }

    private void deadLetter(OrderRequested order, Exception reason) {
        deadLettered.add(order.orderId() + ": " + reason.getMessage());
    }

    private static DataAccessException sqlFailure(SQLException cause) {
        return new DataAccessException("SQL [insert into orders ...]; " + cause.getMessage(), cause);
    }

    private static OrderRequested order(String userId) {
        return OrderRequested.of(UUID.randomUUID().toString(), SKU, userId, 1, Instant.now());
    }
}
