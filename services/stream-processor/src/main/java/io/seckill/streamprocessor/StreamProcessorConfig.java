package io.seckill.streamprocessor;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaGroups;
import io.seckill.runtime.TopicLayout;
import java.nio.file.Path;
import java.time.Duration;

/**
 * SECKILL_STREAMS_APPLICATION_ID (seckill-stream-processor), SECKILL_STREAMS_STATE_DIR (the parent of each instance's
 * own state directory; {java.io.tmpdir}/seckill-streams), SECKILL_STREAMS_THREADS (1), SECKILL_STREAMS_STANDBY_REPLICAS
 * (0), SECKILL_DEDUP_TTL_MS (86400000), the topics' layout ({@link TopicLayout}), SECKILL_MISSING_TOPICS_GRACE_MS
 * (60000: how long input topics may be missing before the client stops), SECKILL_STREAMS_COMMIT_INTERVAL_MS (100, at
 * most 1000: how often the de-duplicated orders' transaction is committed, which is when the sink can read them).
 */
public record StreamProcessorConfig(
        InfraAddresses infra,
        String applicationId,
        Path stateParent,
        int threads,
        int standbyReplicas,
        Duration dedupTtl,
        TopicLayout topics,
        Duration missingTopicsGrace,
        Duration commitInterval) {

    private static final String COMMIT_INTERVAL = "SECKILL_STREAMS_COMMIT_INTERVAL_MS";
    private static final Duration MAX_COMMIT_INTERVAL = Duration.ofSeconds(1);

    public static StreamProcessorConfig from(Env env, InfraAddresses infra) {
        return new StreamProcessorConfig(infra,
                KafkaGroups.from(env).streamsApplicationId(),
                Path.of(env.string("SECKILL_STREAMS_STATE_DIR",
                        Path.of(System.getProperty("java.io.tmpdir"), "seckill-streams").toString())),
                env.integer("SECKILL_STREAMS_THREADS", 1),
                env.integer("SECKILL_STREAMS_STANDBY_REPLICAS", 0),
                env.millis("SECKILL_DEDUP_TTL_MS", Duration.ofHours(24)),
                TopicLayout.from(env),
                env.millis("SECKILL_MISSING_TOPICS_GRACE_MS", Duration.ofSeconds(60)),
                commitInterval(env));
    }

    /** Well inside the transaction timeout, so that a live instance's transaction is never aborted under it. */
    private static Duration commitInterval(Env env) {
        Duration interval = env.millis(COMMIT_INTERVAL, Duration.ofMillis(100));
        if (interval.isNegative() || interval.isZero() || interval.compareTo(MAX_COMMIT_INTERVAL) > 0) {
            throw new IllegalArgumentException(COMMIT_INTERVAL + " must be 1 to " + MAX_COMMIT_INTERVAL.toMillis()
                    + " ms, was " + interval.toMillis());
        }
        return interval;
    }
}
