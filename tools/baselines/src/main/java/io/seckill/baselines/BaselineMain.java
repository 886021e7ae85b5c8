package io.seckill.baselines;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.javalin.Javalin;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaAccess;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringSerializer;
import redis.clients.jedis.RedisClient;

/**
 * One baseline design as a process of its own, for the whole-sale comparison only (never part of the
 * product): {@code naive}, {@code redis-queue} or {@code no-op}, on the servers the environment names (the same
 * variables the services read), serving buyers on {@code BASELINE_PORT}. Runs until killed.
 */
public final class BaselineMain {

    /** Connections: as many as the load generator's, so no request waits for one. */
    private static final int POOL_SIZE = 64;
    private static final int CONSUMERS = 2;
    private static final Duration CONSUMER_STOP = Duration.ofSeconds(10);

    private BaselineMain() {
    }

    public static void main(String[] args) throws Exception {
        Env env = Env.system();
        // The baseline designs keep tables of their own, which they create: the migration account's work, not a
        // service's.
        InfraAddresses infra = InfraAddresses.ofMigrationAccount(env);
        int port = env.integer("BASELINE_PORT", 8090);
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: BaselineMain naive|redis-queue|no-op");
        }
        Baseline design = Baseline.of(args[0]);
        Javalin server = switch (design) {
            case NAIVE -> {
                HikariDataSource database = pool(infra);
                schema(database, NaiveDesign.SQL.schema());
                NaiveDesign naive = new NaiveDesign(database);
                yield BaselineHttp.start(port, naive::buy);
            }
            case REDIS_QUEUE -> {
                HikariDataSource database = pool(infra);
                schema(database, RedisQueueDesign.SQL.schema());
                createTopic(infra.kafka());
                // The baselines are measured on one node, as they were designed.
                RedisClient redis =
                        RedisClient.create(infra.redis().firstNodeUri().toString());
                RedisQueueDesign redisQueue = new RedisQueueDesign(redis, producer(infra.kafka()));
                List<RedisQueueConsumer> consumers = new ArrayList<>();
                List<Thread> threads = new ArrayList<>();
                for (int i = 0; i < CONSUMERS; i++) {
                    RedisQueueConsumer consumer = new RedisQueueConsumer(infra.kafka(), database, redis);
                    consumers.add(consumer);
                    threads.add(Thread.ofPlatform().name("rq-consumer-" + i).start(consumer));
                }
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    consumers.forEach(RedisQueueConsumer::stop);
                    threads.forEach(BaselineMain::awaitEnd);
                }));
                yield BaselineHttp.start(port, redisQueue::buy);
            }
            case NO_OP -> {
                Javalin noOp = BaselineHttp.start(
                        port, (ctx, skuId, userId, quantity) -> BaselineHttp.answer(ctx, 409, "SOLD_OUT"));
                NoOpWarmUp.run(noOp.port(), env.integer(NoOpWarmUp.REQUESTS_VARIABLE, NoOpWarmUp.REQUESTS));
                yield noOp;
            }
        };
        System.out.println("baseline " + design.label() + " listening on http://localhost:" + server.port());
        new CountDownLatch(1).await();
    }

    private static void awaitEnd(Thread thread) {
        try {
            thread.join(CONSUMER_STOP.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static HikariDataSource pool(InfraAddresses infra) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(infra.mysqlUrl());
        config.setUsername(infra.mysqlUser());
        config.setPassword(infra.mysqlPassword());
        config.setMaximumPoolSize(POOL_SIZE);
        config.addDataSourceProperty("cachePrepStmts", "true");
        config.addDataSourceProperty("useServerPrepStmts", "true");
        config.addDataSourceProperty("prepStmtCacheSize", "32");
        return new HikariDataSource(config);
    }

    private static void schema(HikariDataSource database, String[] statements) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            for (String ddl : statements) {
                statement.execute(ddl);
            }
        }
    }

    private static void createTopic(KafkaAccess kafka) throws Exception {
        try (Admin admin = Admin.create(kafka.clientProperties())) {
            admin.createTopics(List.of(new NewTopic(RedisQueueDesign.TOPIC, 12, (short) 1))).all().get();
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw e;
            }
        }
    }

    private static KafkaProducer<String, String> producer(KafkaAccess kafka) {
        Properties settings = kafka.clientProperties();
        settings.put(ProducerConfig.ACKS_CONFIG, "all");
        settings.put(ProducerConfig.RETRIES_CONFIG, 3);
        settings.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        settings.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return new KafkaProducer<>(settings);
    }
}
