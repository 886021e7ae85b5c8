package io.seckill.e2e;

import static io.seckill.schemas.db.Tables.DEAD_LETTERS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.runtime.management.Readiness;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The database refuses every write of the sink the way a server in read-only mode does (error 1290,
 * raised by a trigger: the tests' MariaDB user could write through a real read_only). That is the
 * database's failure, not the orders': the sink waits it out, says so in its readiness, and decides
 * every order once writes are accepted again; nothing goes to the dead-letter path.
 */
@ExtendWith(Pipeline.StaysAlive.class)
class ReadOnlyDatabaseIT {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void ordersMetByAReadOnlyDatabaseAreRetriedNotDeadLettered() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 10, 1);
        String trigger = "read_only_for_" + sku;
        pipeline.sql()
                .execute("CREATE TRIGGER " + trigger + " BEFORE INSERT ON orders FOR EACH ROW "
                        + "BEGIN IF NEW.sku_id = " + sku + " THEN SIGNAL SQLSTATE 'HY000' SET MYSQL_ERRNO = 1290,"
                        + " MESSAGE_TEXT = 'The MariaDB server is running with the"
                        + " --read-only option so it cannot execute this statement';"
                        + " END IF; END");
        List<String> orderIds;
        try {
            orderIds = IntStream.range(0, 3)
                    .mapToObj(i -> pipeline.http.buy(sku, "read-only-" + i, 1).orderId())
                    .toList();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                Readiness.CheckResult sink = pipeline.host.readiness().checks().get("db-sink");
                return !sink.up() && sink.detail().equals("retrying a failed batch");
            });
        } finally {
            pipeline.sql().execute("DROP TRIGGER " + trigger);
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            for (int i = 0; i < orderIds.size(); i++) {
                assertThat(pipeline.http.orderStatus("read-only-" + i, orderIds.get(i))).isEqualTo("CONFIRMED");
            }
        });
        assertThat(pipeline.sql().fetchCount(DEAD_LETTERS, DEAD_LETTERS.ORDER_ID.in(orderIds))).isZero();
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(7);
    }
}
