package io.seckill.runtime;

import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fast path of an event whose row in an outbox table is its durable record: sent without waiting
 * for the broker, a failure logged and never thrown, since the relay sends the row again after its
 * grace period whatever became of this send.
 */
public final class RelayedSend {

    private static final Logger LOG = LoggerFactory.getLogger(RelayedSend.class);

    private RelayedSend() {
    }

    /** @param what the event, for the log line of a failed send (e.g. "order 42") */
    public static void send(Producer<String, byte[]> producer, ProducerRecord<String, byte[]> record, String what) {
        try {
            // The callback reports the outcome; the returned future adds nothing to it.
            var _ = producer.send(record, (metadata, failure) -> {
                if (failure != null) {
                    LOG.warn("{} not published ({}); the relay sends it again", what, failure.toString());
                }
            });
        } catch (KafkaException e) {
            LOG.warn("{} not published ({}); the relay sends it again", what, e.toString());
        }
    }
}
