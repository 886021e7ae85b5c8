package io.seckill.streamprocessor;

import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.seckill.runtime.KafkaClients;
import io.seckill.runtime.OpenedResources;
import io.seckill.runtime.TopicLayout;
import io.seckill.runtime.management.Readiness;
import io.seckill.runtime.management.ServiceHost;
import java.time.Duration;
import java.util.Properties;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.rocksdb.RocksDB;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running Kafka Streams application around {@link OrderDedupTopology}: ready while RUNNING; a failed
 * stream thread is replaced or the client shut down as {@link StreamFailurePolicy} says, and a client in
 * ERROR is reported as fatal to the host.
 */
public final class StreamProcessor implements AutoCloseable {

    static final String READINESS_CHECK = "stream-processor";
    private static final int TRANSACTION_TIMEOUT_MS = 10_000;
    private static final Logger LOG = LoggerFactory.getLogger(StreamProcessor.class);

    /** How long a stop waits for the stream threads to commit and leave the group. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);
    /** Deprecated only because Kafka Streams 5.0 drops the setting when its {@code true} is the one behaviour. */
    @SuppressWarnings("deprecation")
    private static final String PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED =
            StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG;

    private final OpenedResources opened;

    private StreamProcessor(OpenedResources opened) {
        this.opened = opened;
    }

    /** Starts the Streams client; a start that fails closes what it opened, in reverse. */
    public static StreamProcessor start(StreamProcessorConfig config, ServiceHost host) {
        TopicLayout.Replication replication =
                KafkaClients.ensureTopics(config.infra().kafka(), config.topics(), KafkaClients.START_TIMEOUT);
        OpenedResources opened = new OpenedResources();
        try {
            return start(config, replication, host, opened);
        } catch (Throwable e) {
            opened.closeAfter(e);
            throw e;
        }
    }

    /**
     * The start's steps; what each opens is kept in {@code opened}, closed in reverse by a failure or by {@link
     * #close()}.
     */
    private static StreamProcessor start(
            StreamProcessorConfig config,
            TopicLayout.Replication replication,
            ServiceHost host,
            OpenedResources opened) {
        StateDirectorySlot stateDirectory = opened.add(StateDirectorySlot.claim(config.stateParent()));
        // The de-duplication store opens its first RocksDB segment at the first order, and RocksDB's class, on first
        // use, unpacks its native library from the jar and loads it: done here, before ready, so a sale's first orders
        // do not wait.
        RocksDB.loadLibrary();
        Properties props = config.infra().kafka().clientProperties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDirectory.directory().toString());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.threads());
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.standbyReplicas());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, config.commitInterval().toMillis());
        // Kafka Streams 5.0's behaviour, asked for now: the topology has no global store for it to change, and Streams
        // warns at every start until it is set.
        props.put(PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED, true);
        // The partition assignor reads its Streams settings from the main consumer's, which carry only prefixed ones.
        props.put(StreamsConfig.mainConsumerPrefix(PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED), true);
        // The de-duplication store's changelog is replicated as the catalogued topics are: it is what a new owner of a
        // partition restores the orders already seen from.
        props.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, replication.factor());
        props.put(
                StreamsConfig.topicPrefix(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG),
                Integer.toString(replication.minInsync()));
        props.put(
                StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG),
                KafkaClients.SESSION_TIMEOUT_MS);
        props.put(
                StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG),
                KafkaClients.HEARTBEAT_INTERVAL_MS);
        // A transaction left open by an instance killed with kill -9 blocks read_committed readers of its output until
        // the coordinator aborts it, which argues for short; a transaction open when a broker dies lasts until that
        // broker's partitions have new leaders (its session timeout and more), and aborting it fences the thread, whose
        // tasks then move in a rebalance. Streams' own 10 s outlasts a broker's failover; a restarted instance aborts
        // its old transactions at once (the same transactional ids, from its state directory).
        props.put(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG), TRANSACTION_TIMEOUT_MS);
        // Leaves the group on the way out, so that the others take its partitions now, not a session timeout later.
        KafkaStreams streams = opened.add(
                new KafkaStreams(OrderDedupTopology.build(config.dedupTtl(), host.meters()), props),
                client -> client.close(CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP)
                        .withTimeout(CLOSE_WAIT)));
        StreamFailurePolicy failures = new StreamFailurePolicy(host.clock(), config.missingTopicsGrace());
        streams.setUncaughtExceptionHandler(failure -> {
            StreamThreadExceptionResponse response = failures.onFailure(failure);
            switch (response) {
                case REPLACE_THREAD -> LOG.warn("stream thread failed ({}); replacing it", failure.toString());
                case SHUTDOWN_CLIENT, SHUTDOWN_APPLICATION ->
                    LOG.error("stream thread failed; shutting the client down", failure);
            }
            return response;
        });
        streams.setStateListener((now, before) -> {
            if (now == KafkaStreams.State.RUNNING) {
                failures.running();
            }
            if (now == KafkaStreams.State.ERROR) {
                host.fatal()
                        .cannotContinue(
                                READINESS_CHECK,
                                new IllegalStateException("Kafka Streams went from " + before + " to ERROR"));
            }
        });
        opened.add(new KafkaStreamsMetrics(streams)).bindTo(host.meters());
        host.readiness().add(READINESS_CHECK, () -> readiness(streams));
        streams.start();
        LOG.info("stream-processor started: application {} on {}, state in {}", config.applicationId(),
                config.infra().kafka(), stateDirectory.directory());
        return new StreamProcessor(opened);
    }

    private static Readiness.CheckResult readiness(KafkaStreams streams) {
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING) {
            return Readiness.CheckResult.down("state " + state);
        }
        SortedSet<String> active = new TreeSet<>();
        SortedSet<String> standby = new TreeSet<>();
        streams.metadataForLocalThreads().forEach(thread -> {
            thread.activeTasks().forEach(task -> active.add(task.taskId().toString()));
            thread.standbyTasks().forEach(task -> standby.add(task.taskId().toString()));
        });
        return Readiness.CheckResult.up("RUNNING, active tasks " + active + ", standby tasks " + standby);
    }

    @Override
    public void close() {
        opened.close();
    }
}
