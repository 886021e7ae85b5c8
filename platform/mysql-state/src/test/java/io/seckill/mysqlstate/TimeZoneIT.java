package io.seckill.mysqlstate;

import static io.seckill.schemas.db.Tables.OUTBOX;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.trace.TraceParent;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.TimeZone;
import java.util.UUID;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * Every timestamp column holds UTC, whether Java wrote it or MySQL's own clock did, whatever the time zone
 * of the JVM that wrote it: the sale window compares an order's recording time (MySQL's clock) with the
 * sale's start and end (written by Java), and the relay compares due times with MySQL's clock.
 */
class TimeZoneIT {

    @Test
    void anInstantWrittenFromAJvmAheadOfUtcIsStoredAsUtcBesideMySqlsClock() {
        TimeZone original = TimeZone.getDefault();
        TimeZone.setDefault(TimeZone.getTimeZone("Asia/Tokyo"));
        try (Database database = Database.connect(
                LocalInfrastructure.get().ownerAddresses(), "time-zone-test", 1, new SimpleMeterRegistry())) {
            Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
            OrderRequested order = OrderRequested.of(UUID.randomUUID().toString(), 1, "tokyo-buyer", 1, now);
            // relay_after written by Java as now; created_at by MySQL's clock as it inserts the row.
            new Outbox()
                    .insert(
                            database.dsl(),
                            List.of(new Outbox.NewRow(
                                    new OrderFacts(order.orderId(), 1, order.userId(), 1),
                                    EventJson.encodeToString(order),
                                    null,
                                    now,
                                    TraceParent.start().toString())));

            Long apartSeconds = database.dsl()
                    .select(DSL.field("TIMESTAMPDIFF(SECOND, created_at, relay_after)", Long.class))
                    .from(OUTBOX)
                    .where(OUTBOX.ID.eq(order.orderId()))
                    .fetchOne(0, Long.class);
            assertThat(apartSeconds).as("Java's now and MySQL's now, in seconds apart").isBetween(-5L, 5L);
            assertThat(database.dsl().fetchValue(OUTBOX.RELAY_AFTER, OUTBOX.ID.eq(order.orderId()))).isEqualTo(now);
        } finally {
            TimeZone.setDefault(original);
        }
    }
}
