package io.seckill.baselines;

import io.seckill.config.KafkaAccess;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import javax.sql.DataSource;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.UnifiedJedis;

/**
 * The back half of the second seed document's design: consumers of the order topic (auto-commit off,
 * offsets committed by hand once a poll's orders are in MySQL), each order its own transaction: skipped
 * if the buyer already has an order of the SKU, else a conditional UPDATE of the stock and the order's
 * insert; when MySQL has no stock left the Redis reservation is given back (the seed's compensation).
 */
final class RedisQueueConsumer implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(RedisQueueConsumer.class);

    private final KafkaConsumer<String, String> consumer;
    private final DataSource database;
    private final UnifiedJedis redis;

    RedisQueueConsumer(KafkaAccess kafka, DataSource database, UnifiedJedis redis) {
        this.database = database;
        this.redis = redis;
        Properties settings = kafka.clientProperties();
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, "rq-orders-group");
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "latest");
        settings.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        settings.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumer = new KafkaConsumer<>(settings);
    }

    /**
     * Ends {@link #run}, which then leaves the group: a process started again (the whole sale restarts the designs
     * between its cold rounds) gets every partition at once, not after the dead members' session timeout.
     */
    void stop() {
        consumer.wakeup();
    }

    @Override
    public void run() {
        try (consumer) {
            consumer.subscribe(List.of(RedisQueueDesign.TOPIC));
            while (true) {
                var records = consumer.poll(Duration.ofMillis(100));
                for (ConsumerRecord<String, String> record : records) {
                    record(record.value());
                }
                if (!records.isEmpty()) {
                    consumer.commitSync();
                }
            }
        } catch (WakeupException stopped) {
            LOG.info("the order consumer stopped");
        } catch (SQLException e) {
            LOG.error("the order consumer stopped", e);
        }
    }

    private void record(String message) throws SQLException {
        String[] order = message.split(":", -1);
        String orderId = order[0];
        long skuId = Long.parseLong(order[1]);
        String userId = order[2];
        int quantity = Integer.parseInt(order[3]);
        try (Connection connection = database.getConnection()) {
            connection.setAutoCommit(false);
            if (RedisQueueDesign.SQL.hasOrder(connection, skuId, userId)) {
                connection.rollback();
                return;
            }
            if (!RedisQueueDesign.SQL.charge(connection, skuId, quantity)) {
                connection.rollback();
                redis.incrBy(RedisQueueDesign.stockKey(skuId), quantity);
                redis.srem(RedisQueueDesign.buyersKey(skuId), userId);
                return;
            }
            RedisQueueDesign.SQL.insertOrder(connection, orderId, skuId, userId, quantity);
            connection.commit();
        }
    }
}
