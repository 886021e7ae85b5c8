package io.seckill.reconciler;

import io.seckill.runtime.DeadLetterPublisher;
import io.seckill.runtime.SaleStore;
import io.seckill.schemas.events.EventJson;
import io.seckill.schemas.events.InvalidEventException;
import io.seckill.schemas.events.OrderResult;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.StockCompensation;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes Redis reservations once the database has spoken. A confirmed order's ledger entry is settled
 * (the units stay sold); a compensated order's units and the buyer's slot go back. Both are guarded by
 * the ledger inside Lua, so a redelivered event changes nothing (promise P4).
 */
final class ReservationSettler {

    private static final Logger LOG = LoggerFactory.getLogger(ReservationSettler.class);

    private final SaleStore saleStore;
    private final DeadLetterPublisher deadLetters;

    ReservationSettler(SaleStore saleStore, DeadLetterPublisher deadLetters) {
        this.saleStore = saleStore;
        this.deadLetters = deadLetters;
    }

    void onResults(ConsumerRecords<String, byte[]> records) throws Exception {
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                OrderResult result = EventJson.decode(record.value(), OrderResult.class);
                if (result.status() == OrderStatus.CONFIRMED) {
                    saleStore.confirm(result.skuId(), result.orderId());
                }
            } catch (InvalidEventException e) {
                deadLetters.publish(record, e);
            }
        }
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
