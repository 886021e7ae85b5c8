package io.seckill.streamprocessor;

import io.seckill.runtime.KafkaClients;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.CloseOptions.GroupMembershipOperation;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The running Kafka Streams application around {@link OrderDedupTopology}. */
public final class StreamProcessor implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StreamProcessor.class);

    private final KafkaStreams streams;

    private StreamProcessor(KafkaStreams streams) {
        this.streams = streams;
    }

    public static StreamProcessor start(StreamProcessorConfig config) {
        KafkaClients.ensureTopics(config.infra().kafkaBootstrap());
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.infra().kafkaBootstrap());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir().toString());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.threads());
        props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
        KafkaStreams streams = new KafkaStreams(OrderDedupTopology.build(config.dedupTtl()), props);
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed; replacing it", e);
            return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
        streams.start();
        LOG.info("stream-processor started: application {} on {}", config.applicationId(), config.infra().kafkaBootstrap());
        return new StreamProcessor(streams);
    }

    /** Leaves the group on the way out, so that the others take its partitions now, not a session timeout later. */
    @Override
    public void close() {
        streams.close(CloseOptions.groupMembershipOperation(GroupMembershipOperation.LEAVE_GROUP).withTimeout(Duration.ofSeconds(30)));
    }
}
