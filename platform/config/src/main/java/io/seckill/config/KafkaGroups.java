package io.seckill.config;

/**
 * The consumer groups and the Streams application the services join, named by settings that the services and the
 * ACL catalogue read alike: SECKILL_SINK_GROUP_ID (seckill-db-sink) and SECKILL_STREAMS_APPLICATION_ID
 * (seckill-stream-processor, also the prefix of its internal topics and transactional ids); the reconciler's groups
 * all start with {@link #RECONCILER_GROUP_PREFIX}.
 */
public record KafkaGroups(String sinkGroup, String streamsApplicationId) {

    public static final String SINK_GROUP_ID = "SECKILL_SINK_GROUP_ID";
    public static final String STREAMS_APPLICATION_ID = "SECKILL_STREAMS_APPLICATION_ID";
    public static final String RECONCILER_GROUP_PREFIX = "seckill-reconciler-";

    public static KafkaGroups from(Env env) {
        return new KafkaGroups(
                env.string(SINK_GROUP_ID, "seckill-db-sink"),
                env.string(STREAMS_APPLICATION_ID, "seckill-stream-processor"));
    }
}
