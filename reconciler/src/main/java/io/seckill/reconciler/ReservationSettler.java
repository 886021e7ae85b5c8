package io.seckill.reconciler;

import io.seckill.runtime.DeadLetterPublisher;
import io.seckill.runtime.OrderStatusStore;
import io.seckill.runtime.OrderView;
import io.seckill.runtime.SaleStore;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.StockCompensation;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes Redis reservations once the database has spoken, and tells polling buyers (order status). A
 * confirmed order's ledger entry is settled (the units stay sold); a compensated order's units and the buyer's slot go back. Both are guarded by
 * the ledger inside Lua, so a redelivered event changes nothing (promise P4).
 */
final class ReservationSettler {

    private static final Logger LOG = LoggerFactory.getLogger(ReservationSettler.class);

    private final SaleStore saleStore;
    private final OrderStatusStore statuses;
    private final DeadLetterPublisher deadLetters;

    ReservationSettler(SaleStore saleStore, OrderStatusStore statuses, DeadLetterPublisher deadLetters) {
        this.saleStore = saleStore;
        this.statuses = statuses;
        this.deadLetters = deadLetters;
    }

    /** A poll's results are settled in two round trips (ledger, then statuses), not two per result. */
    void onResults(ConsumerRecords<String, byte[]> records) throws Exception {
        List<OrderResult> results = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                results.add(EventJson.decode(record.value(), OrderResult.class));
            } catch (InvalidEventException e) {
                deadLetters.publish(record, e);
            }
        }
        saleStore.confirmAll(results.stream().filter(result -> result.status() == OrderStatus.CONFIRMED).toList());
        statuses.putAll(results.stream()
                .map(result -> new OrderView(result.orderId(), result.skuId(), result.userId(), result.quantity(),
                        result.status().name(), result.reason()))
                .toList());
    }

    void onCompensations(ConsumerRecords<String, byte[]> records) throws Exception {
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                StockCompensation compensation = EventJson.decode(record.value(), StockCompensation.class);
                long released = saleStore.release(compensation.skuId(), compensation.orderId());
                if (released > 0) {
                    LOG.info("released {} unit(s) of SKU {} for rejected order {} ({})", released,
                            compensation.skuId(), compensation.orderId(), compensation.reason());
                }
            } catch (InvalidEventException e) {
                deadLetters.publish(record, e);
            }
        }
    }
}
