package io.seckill.reconciler.repair;

import static org.awaitility.Awaitility.await;

import io.seckill.config.KafkaSecurity;
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
import javax.security.auth.callback.Callback;
import javax.security.auth.callback.NameCallback;
import javax.security.auth.callback.PasswordCallback;
import javax.security.auth.callback.UnsupportedCallbackException;
import javax.security.sasl.Sasl;
import javax.security.sasl.SaslClient;
import javax.security.sasl.SaslException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.ProduceResponse;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.requests.SaslAuthenticateRequest;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeRequest;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.security.scram.internals.ScramSaslClientProvider;

/**
 * Leaves a real hanging transaction on a partition, the state a produce request that reached its leader
 * after its transaction had ended leaves behind: a transactional batch from a producer no coordinator
 * knows, appended with no marker to come. The broker refuses such a write while it verifies transactional
 * writes with their coordinator (KIP-890), so the verification is switched off around the one request
 * (a dynamic broker setting) and back on after it, whatever happens. The request goes over a socket of its own,
 * logged in with SCRAM as the given principal.
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
    static void leave(
            Admin admin,
            KafkaSecurity.Sasl login,
            String host,
            int port,
            String topic,
            int partition,
            long producerId,
            long timestamp,
            byte[] value)
            throws Exception {
        ConfigResource cluster = new ConfigResource(ConfigResource.Type.BROKER, "");
        alter(admin, cluster, new AlterConfigOp(new ConfigEntry(VERIFICATION, "false"), AlterConfigOp.OpType.SET));
        try {
            // The setting reaches the broker through its metadata log, a moment after the admin call returns.
            AtomicInteger attempts = new AtomicInteger();
            await().atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(
                            () -> produce(
                                    login,
                                    host,
                                    port,
                                    topic,
                                    partition,
                                    producerId,
                                    timestamp,
                                    value,
                                    attempts.incrementAndGet()),
                            Errors.NONE::equals);
        } finally {
            alter(admin, cluster, new AlterConfigOp(new ConfigEntry(VERIFICATION, ""), AlterConfigOp.OpType.DELETE));
        }
    }

    private static void alter(Admin admin, ConfigResource resource, AlterConfigOp op)
            throws ExecutionException, InterruptedException {
        admin.incrementalAlterConfigs(Map.of(resource, List.of(op))).all().get();
    }

    private static Errors produce(
            KafkaSecurity.Sasl login,
            String host,
            int port,
            String topic,
            int partition,
            long producerId,
            long timestamp,
            byte[] value,
            int correlationId)
            throws IOException, SaslException {
        MemoryRecords records = MemoryRecords.withTransactionalRecords(Compression.NONE, producerId, (short) 0, 0,
                new SimpleRecord(timestamp, null, value));
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData()
                .setName(topic)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                        .setIndex(partition)
                        .setRecords(records))));
        ProduceRequestData data = new ProduceRequestData().setTransactionalId("stray-" + producerId).setAcks((short) -1)
                .setTimeoutMs(10_000).setTopicData(topics);
        ProduceRequest request =
                new ProduceRequest.Builder(PRODUCE_VERSION, PRODUCE_VERSION, data).build(PRODUCE_VERSION);
        RequestHeader header = new RequestHeader(ApiKeys.PRODUCE, PRODUCE_VERSION, "stray-transaction", correlationId);
        ByteBuffer bytes = request.serializeWithHeader(header);
        try (Socket socket = new Socket(host, port)) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            logIn(out, in, login, host);
            ProduceResponse response = (ProduceResponse) exchange(out, in, bytes, header);
            for (ProduceResponseData.TopicProduceResponse topicResponse : response.data().responses()) {
                for (ProduceResponseData.PartitionProduceResponse partitionResponse :
                        topicResponse.partitionResponses()) {
                    return Errors.forCode(partitionResponse.errorCode());
                }
            }
            throw new IllegalStateException("the broker answered the produce request with no partition");
        }
    }

    /**
     * The broker authenticates every connection: SCRAM as the given principal, as Kafka's own client would (KIP-152).
     */
    private static void logIn(DataOutputStream out, DataInputStream in, KafkaSecurity.Sasl login, String host)
            throws IOException, SaslException {
        RequestHeader handshakeHeader = new RequestHeader(ApiKeys.SASL_HANDSHAKE, (short) 1, "stray-transaction", 0);
        SaslHandshakeResponse handshake = (SaslHandshakeResponse) exchange(
                out,
                in,
                new SaslHandshakeRequest.Builder(new SaslHandshakeRequestData()
                                .setMechanism(login.mechanism().kafkaName()))
                        .build((short) 1)
                        .serializeWithHeader(handshakeHeader),
                handshakeHeader);
        if (handshake.error() != Errors.NONE) {
            throw new IllegalStateException(
                    "the broker refused " + login.mechanism().kafkaName() + ": " + handshake.error());
        }
        ScramSaslClientProvider.initialize();
        SaslClient client = Sasl.createSaslClient(
                new String[] {login.mechanism().kafkaName()}, null, "kafka", host, Map.of(), callbacks -> {
                    for (Callback callback : callbacks) {
                        if (callback instanceof NameCallback name) {
                            name.setName(login.user());
                        } else if (callback instanceof PasswordCallback password) {
                            password.setPassword(login.password().toCharArray());
                        } else {
                            throw new UnsupportedCallbackException(callback);
                        }
                    }
                });
        byte[] next = client.evaluateChallenge(new byte[0]);
        while (!client.isComplete()) {
            RequestHeader authHeader = new RequestHeader(ApiKeys.SASL_AUTHENTICATE, (short) 2, "stray-transaction", 0);
            SaslAuthenticateResponse answer = (SaslAuthenticateResponse) exchange(
                    out,
                    in,
                    new SaslAuthenticateRequest.Builder(new SaslAuthenticateRequestData().setAuthBytes(next))
                            .build((short) 2)
                            .serializeWithHeader(authHeader),
                    authHeader);
            if (answer.error() != Errors.NONE) {
                throw new IllegalStateException("the broker refused the login: " + answer.errorMessage());
            }
            next = client.evaluateChallenge(answer.saslAuthBytes());
        }
    }

    private static AbstractResponse exchange(
            DataOutputStream out, DataInputStream in, ByteBuffer request, RequestHeader header) throws IOException {
        out.writeInt(request.remaining());
        out.write(request.array(), request.arrayOffset() + request.position(), request.remaining());
        out.flush();
        byte[] reply = new byte[in.readInt()];
        in.readFully(reply);
        return AbstractResponse.parseResponse(ByteBuffer.wrap(reply), header);
    }
}
