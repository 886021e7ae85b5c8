package io.seckill.baselines;

import io.javalin.http.Context;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * The design of the second seed document, front half: one Lua call checks the buyer is not in the SKU's
 * set of buyers and the stock covers the quantity, then decrements it and adds the buyer; the order is
 * sent to Kafka asynchronously (keyed by SKU, acks=all, 3 retries) and the buyer is answered before any
 * durable record exists. {@link RedisQueueConsumer} is the back half.
 */
public final class RedisQueueDesign {

    static final String TOPIC = "rq-orders";
    static final BaselineSql SQL = Baseline.REDIS_QUEUE.tables();
    private static final Logger LOG = LoggerFactory.getLogger(RedisQueueDesign.class);
    private static final String RESERVE = """
        if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return -1 end
        local stock = tonumber(redis.call('GET', KEYS[1]) or '0')
        if stock < tonumber(ARGV[2]) then return 0 end
        redis.call('DECRBY', KEYS[1], ARGV[2])
        redis.call('SADD', KEYS[2], ARGV[1])
        return 1
        """;

    private final UnifiedJedis redis;
    private final Producer<String, String> producer;
    private final String reserveSha;

    RedisQueueDesign(UnifiedJedis redis, Producer<String, String> producer) {
        this.redis = redis;
        this.producer = producer;
        this.reserveSha = redis.scriptLoad(RESERVE);
    }

    public static String stockKey(long skuId) {
        return "rq:{" + skuId + "}:stock";
    }

    public static String buyersKey(long skuId) {
        return "rq:{" + skuId + "}:buyers";
    }

    void buy(Context ctx, long skuId, String userId, int quantity) {
        long reserved = (Long) redis.evalsha(
                reserveSha, List.of(stockKey(skuId), buyersKey(skuId)), List.of(userId, Integer.toString(quantity)));
        if (reserved == -1) {
            BaselineHttp.answer(ctx, 409, "PURCHASE_LIMIT_REACHED");
            return;
        }
        if (reserved == 0) {
            BaselineHttp.answer(ctx, 409, "SOLD_OUT");
            return;
        }
        String orderId = UUID.randomUUID().toString();
        // The callback reports a failed send; the buyer was answered before it, as this design does.
        var _ = producer.send(
                new ProducerRecord<>(
                        TOPIC, Long.toString(skuId), orderId + ":" + skuId + ":" + userId + ":" + quantity),
                (metadata, failure) -> {
                    if (failure != null) {
                        LOG.warn("order {} could not be sent to Kafka", orderId, failure);
                    }
                });
        BaselineHttp.accepted(ctx, 202, orderId);
    }
}
