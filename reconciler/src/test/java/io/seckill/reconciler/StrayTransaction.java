package io.seckill.reconciler;

import static org.awaitility.Awaitility.await;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;

/**
 * Leaves a real hanging transaction on a partition, the state a produce request that reached its leader
 * after its transaction had ended leaves behind: a transactional batch from a producer no coordinator
 * knows, appended with no marker to come. The broker refuses such a write while it verifies transactional
 * writes with their coordinator (KIP-890), so the verification is switched off around the one request
 * (a dynamic broker setting) and back on after it, whatever happens.
 */
final class StrayTransaction {

    private static final String VERIFICATION = "transaction.partition.verification.enable";
    private static final short PRODUCE_VERSION = ProduceRequest.LAST_STABLE_VERSION_BEFORE_TRANSACTION_V2;

    private StrayTransaction() {
    }

    /**
     * Appends one record to {@code partition} of {@code topic} inside a transaction of {@code producerId}
     * (epoch 0) that nothing will ever end. The broker at {@code host:port} must lead the partition.
     */
    static void leave(Admin admin, String host, int port, String topic, int partition, long producerId, long timestamp, byte[] value)
            throws Exception {
        ConfigResource cluster = new ConfigResource(ConfigResource.Type.BROKER, "");
        alter(admin, cluster, new AlterConfigOp(new ConfigEntry(VERIFICATION, "false"), AlterConfigOp.OpType.SET));
        try {
            // The setting reaches the broker through its metadata log, a moment after the admin call returns.
            AtomicInteger attempts = new AtomicInteger();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> produce(host, port, topic, partition, producerId, timestamp, value, attempts.incrementAndGet()), Errors.NONE::equals);
        } finally {
            alter(admin, cluster, new AlterConfigOp(new ConfigEntry(VERIFICATION, ""), AlterConfigOp.OpType.DELETE));
        }
    }

    private static void alter(Admin admin, ConfigResource resource, AlterConfigOp op) throws ExecutionException, InterruptedException {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(op))).all().get();
    }

    private static Errors produce(String host, int port, String topic, int partition, long producerId, long timestamp, byte[] value,
            int correlationId) throws IOException {
        MemoryRecords records = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, 0,
                new SimpleRecord(timestamp, null, value));
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(topic)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData().setIndex(partition).setRecords(records))));
        ProduceRequestData data = new ProduceRequestData().setTransactionalId("stray-" + producerId).setAcks((short) -1)
                .setTimeoutMs(10_000).setTopicData(topics);
        ProduceRequest request = new ProduceRequest.Builder(PRODUCE_VERSION, PRODUCE_VERSION, data).build(PRODUCE_VERSION);
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, PRODUCE_VERSION, "stray-transaction", correlationId);
        ByteBuffer bytes = request.serializeWithHeader(header);
        try (Socket socket = new Socket(host, port)) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] reply = new byte[in.readInt()];
            in.readFully(reply);
            ProduceResponse response = (ProduceResponse) AbstractResponse.parseResponse(ByteBuffer.wrap(reply), header);
            for (ProduceResponseData.TopicProduceResponse topicResponse : response.data().responses()) {
                for (ProduceResponseData.PartitionProduceResponse partitionResponse : topicResponse.partitionResponses()) {
                    return Errors.forCode(partitionResponse.errorCode());
                }
            }
            throw new IllegalStateException("the broker answered the produce request with no partition");
        }
    }
}
