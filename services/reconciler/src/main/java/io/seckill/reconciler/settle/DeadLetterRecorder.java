package io.seckill.reconciler.settle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.mysqlstate.DeadLetteredOrders;
import io.seckill.mysqlstate.DeadLetters;
import io.seckill.mysqlstate.SqlFailures;
import io.seckill.reconciler.jobs.ReconcilerMetrics;
import io.seckill.reconciler.jobs.ReconcilerParts;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.Delivery;
import io.seckill.runtime.PerMinuteSample;
import io.seckill.schemas.events.OrderIdFormat;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import io.seckill.schemas.kafka.DeadLetterHeaders;
import io.seckill.schemas.kafka.Topic;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Files dead letters in MySQL with their reason: every one that decides or releases something, and of those that change
 * nothing (no order named, or one they prove nothing about) the first {@value #INERT_FILED_PER_MINUTE} a minute, the
 * rest counted ({@code seckill_dead_letters_unfiled_total}); the topic keeps them all for its retention. When the
 * poison is an order request (it failed on the request path) that still names its order (orderId and skuId readable),
 * the database never decided that order and the order's own outbox row is poison too (its payload no valid order
 * request saying what its columns say), the order can never be decided: it is decided REJECTED (DEAD_LETTERED) ({@link
 * DeadLetteredOrders}, which cannot race the sink), and only then does its reservation go back. A dead letter naming an
 * order whose row is sound proves nothing, whoever wrote it: it is filed and counted, and the order is left to the
 * pipeline. Poison from elsewhere (a broken result or compensation) releases nothing: the order behind it was decided
 * and its stock is accounted for; nor does poison naming an order with no open row (the leak sweep settles a
 * reservation no row stands for). Idempotent: the row is keyed by its dead-letter position, the release by the Redis
 * ledger.
 */
public record DeadLetterRecorder(
        DSLContext dsl,
        DeadLetters letters,
        DeadLetteredOrders deadLettered,
        SaleStore saleStore,
        OrderStatusStore statuses,
        Clock clock,
        ReconcilerMetrics metrics,
        PerMinuteSample inertFiled) {

    DeadLetterRecorder(DSLContext dsl, DeadLetters letters, DeadLetteredOrders deadLettered, SaleStore saleStore,
                       OrderStatusStore statuses, Clock clock, ReconcilerMetrics metrics) {
        this(
                dsl,
                letters,
                deadLettered,
                saleStore,
                statuses,
                clock,
                metrics,
                new PerMinuteSample(
                        "dead letters that changed nothing, filed", INERT_FILED_PER_MINUTE, System::nanoTime));
    }

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterRecorder.class);
    private static final ObjectMapper LENIENT = new ObjectMapper();
    /**
     * Dead letters that change nothing (they name no order, or one they cannot decide) filed per minute; the rest are
     * counted only: anyone who may write the topic could otherwise fill the table.
     */
    static final int INERT_FILED_PER_MINUTE = 60;

    public void onDeadLetters(List<Delivery<byte[]>> deliveries) {
        for (Delivery<byte[]> delivery : deliveries) {
            record(delivery.record());
        }
    }

    private void record(ConsumerRecord<String, byte[]> record) {
        Optional<OrderRef> order = orderNamedBy(record.value());
        // Released as its outbox row (the source of truth) names it, not as the dead letter does.
        Optional<OrderResult> rejected = order.isPresent() && fromRequestPath(record)
                ? rejectedAsDeadLettered(order.get().orderId())
                : Optional.empty();
        boolean released = rejected.isPresent()
                && saleStore.release(
                                rejected.get().skuId(),
                                rejected.get().orderId(),
                                rejected.get().userId())
                        > 0;
        String reason = Optional.ofNullable(DeadLetterHeaders.read(record.headers(), DeadLetterHeaders.REASON))
                .orElse("no reason given");
        metrics.deadLetter(
                Optional.ofNullable(DeadLetterHeaders.read(record.headers(), DeadLetterHeaders.STAGE))
                        .orElse("unknown"),
                Optional.ofNullable(DeadLetterHeaders.read(record.headers(), DeadLetterHeaders.EXCEPTION))
                        .map(name -> name.substring(name.lastIndexOf('.') + 1))
                        .orElse("unknown"));
        if (rejected.isEmpty() && !inertFiled.keep("inert")) {
            metrics.deadLetterNotFiled();
            return;
        }
        try {
            file(record, order, reason, released, true);
        } catch (RuntimeException refused) {
            if (SqlFailures.kind(refused) != SqlFailures.Kind.RECORD) {
                throw refused;
            }
            // Filed without the text the database refused, rather than blocking the dead-letter partition for good.
            file(
                    record,
                    order,
                    "could not be filed as received (" + refused.getMessage() + "); reason: " + reason,
                    released,
                    false);
        }
        rejected.ifPresent(
                rejection -> statuses.decide(rejection.orderId(), OrderStatus.REJECTED, RejectReason.DEAD_LETTERED));
    }

    /** @param asReceived false to leave out the record's key and text headers (stage, source topic) */
    private void file(ConsumerRecord<String, byte[]> record, Optional<OrderRef> order, String reason, boolean released,
                      boolean asReceived) {
        Headers headers = record.headers();
        letters.file(
                dsl,
                new DeadLetters.Letter(
                        record.partition(),
                        record.offset(),
                        asReceived ? DeadLetterHeaders.read(headers, DeadLetterHeaders.SOURCE_TOPIC) : null,
                        number(DeadLetterHeaders.read(headers, DeadLetterHeaders.SOURCE_PARTITION))
                                .map(Long::intValue)
                                .orElse(null),
                        number(DeadLetterHeaders.read(headers, DeadLetterHeaders.SOURCE_OFFSET))
                                .orElse(null),
                        reason,
                        asReceived ? DeadLetterHeaders.read(headers, DeadLetterHeaders.STAGE) : null,
                        order.map(OrderRef::orderId).orElse(null),
                        asReceived && record.key() != null ? record.key().getBytes(StandardCharsets.UTF_8) : null,
                        record.value(),
                        released));
    }

    /**
     * Decides the order REJECTED (DEAD_LETTERED) and closes its row, if its row is open, the order undecided and the
     * row's own payload is poison: then no copy of it, relayed or not, can ever be decided. A dead letter naming an
     * order whose row is sound proves nothing (the sink rejects what it fails on itself); it is filed for a human and
     * counted.
     */
    private Optional<OrderResult> rejectedAsDeadLettered(String orderId) {
        DeadLetteredOrders.Outcome outcome =
                deadLettered.reject(dsl, orderId, row -> !row.payloadIsSound(), clock.instant());
        return switch (outcome.verdict()) {
            case REJECTED -> outcome.rejection();
            case UNPROVEN -> {
                metrics.deadLetterUnproven();
                LOG.warn(
                        "a dead letter names open order {}, whose outbox row is sound: filed for a human, the order"
                                + " left for the pipeline",
                        orderId);
                yield Optional.empty();
            }
            case SETTLED -> Optional.empty();
        };
    }

    private static boolean fromRequestPath(ConsumerRecord<String, byte[]> record) {
        String source = DeadLetterHeaders.read(record.headers(), DeadLetterHeaders.SOURCE_TOPIC);
        return Topic.ORDER_REQUESTS.topicName().equals(source) || Topic.ORDERS_UNIQUE.topicName().equals(source);
    }

    private static Optional<OrderRef> orderNamedBy(byte[] value) {
        if (value == null || value.length == 0) {
            return Optional.empty();
        }
        try {
            JsonNode json = LENIENT.readTree(value);
            if (json == null || !json.path("orderId").isTextual() || !json.path("skuId").canConvertToLong()) {
                return Optional.empty();
            }
            String orderId = json.get("orderId").asText();
            return OrderIdFormat.isValid(orderId)
                    ? Optional.of(new OrderRef(orderId, json.get("skuId").asLong()))
                    : Optional.empty();
        } catch (IOException notJson) {
            return Optional.empty();
        }
    }

    private static Optional<Long> number(String text) {
        try {
            return text == null ? Optional.empty() : Optional.of(Long.valueOf(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }


    private record OrderRef(String orderId, long skuId) {
    }

    /** The filing of dead letters, on the reconciler's parts. */
    public static DeadLetterRecorder of(ReconcilerParts parts) {
        return new DeadLetterRecorder(
                parts.dsl(),
                parts.tables().deadLetters(),
                parts.tables().deadLettered(),
                parts.saleStore(),
                parts.statuses(),
                parts.clock(),
                parts.metrics());
    }
}
