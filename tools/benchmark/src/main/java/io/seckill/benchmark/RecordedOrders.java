package io.seckill.benchmark;

import io.seckill.mysqlstate.Database;
import io.seckill.mysqlstate.Outbox;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.trace.TraceParent;
import java.time.Duration;
import java.util.List;

/** Writes orders' outbox rows as the ingress would, so that the sink's writer finds each order it is given recorded. */
final class RecordedOrders {

    private static final int ROWS_PER_INSERT = 1_000;
    private static final Duration RELAY_GRACE = Duration.ofHours(1);

    private RecordedOrders() {
    }

    static void record(Database database, List<OrderRequested> orders) {
        Outbox outbox = new Outbox();
        for (int from = 0; from < orders.size(); from += ROWS_PER_INSERT) {
            outbox.insert(
                    database.dsl(),
                    orders.subList(from, Math.min(orders.size(), from + ROWS_PER_INSERT)).stream()
                            .map(order -> Outbox.NewRow.of(
                                    order, EventJson.encodeToString(order), null, RELAY_GRACE, TraceParent.start()))
                            .toList());
        }
    }
}
