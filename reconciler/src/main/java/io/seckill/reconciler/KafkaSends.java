package io.seckill.reconciler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;

/** Sends a batch of records and waits for every acknowledgement: a relay counts a row as sent only then. */
final class KafkaSends {

    private KafkaSends() {
    }

    /** @param what what the records are, for the failure's message */
    static void sendAll(Producer<String, byte[]> producer, List<ProducerRecord<String, byte[]>> records, String what) {
        List<Future<RecordMetadata>> acks = new ArrayList<>();
        for (ProducerRecord<String, byte[]> record : records) {
            acks.add(producer.send(record));
        }
        try {
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        } catch (ExecutionException e) {
            throw new IllegalStateException("sending " + records.size() + " " + what + " failed; they come due again after their backoff",
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted sending " + what, e);
        }
    }
}
