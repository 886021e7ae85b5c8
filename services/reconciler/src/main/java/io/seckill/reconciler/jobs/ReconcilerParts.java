package io.seckill.reconciler.jobs;

import io.seckill.mysqlstate.DeadLetteredOrders;
import io.seckill.mysqlstate.DeadLetters;
import io.seckill.mysqlstate.OrderEvents;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.ReturnedUnits;
import io.seckill.mysqlstate.SaleSnapshots;
import io.seckill.mysqlstate.Skus;
import io.seckill.mysqlstate.StockAdjustments;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.SaleStore;
import io.seckill.runtime.DeadLetterPublisher;
import io.seckill.runtime.UnsupportedRecords;
import io.seckill.runtime.management.ServiceHost;
import java.time.Clock;
import java.time.Duration;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.jooq.DSLContext;
import redis.clients.jedis.UnifiedJedis;

/**
 * What the reconciler's jobs and consumers share, each made once: its connections, the stores over them, the tables'
 * owners, its metrics and its clock. A job takes what it needs from here and its own area's settings
 * ({@code job(parts, settings)}), so a new one touches its own class and the list that starts them.
 */
public record ReconcilerParts(DSLContext dsl, UnifiedJedis redis, LuaRunner lua, SaleStore saleStore,
                       OrderStatusStore statuses, KafkaProducer<String, byte[]> producer, Admin admin,
                       Admin repairAdmin, DeadLetterPublisher deadLetters, UnsupportedRecords unsupported,
                       Tables tables, ReconcilerMetrics metrics, Clock clock) {

    /** The owners of the tables the reconciler reads and writes, each made once. */
    public record Tables(Orders orders, Skus skus, Outbox outbox, OutboxLookups outboxRows, OrderEvents orderEvents,
                  StockAdjustments stockAdjustments, ReturnedUnits returnedUnits, SaleSnapshots snapshots,
                  DeadLetters deadLetters, DeadLetteredOrders deadLettered) {

        static Tables made() {
            return new Tables(new Orders(), new Skus(), new Outbox(), new OutboxLookups(), new OrderEvents(),
                    new StockAdjustments(), new ReturnedUnits(), new SaleSnapshots(), new DeadLetters(),
                    new DeadLetteredOrders());
        }
    }

    /** The name the reconciler's dead letters and refusals carry. */
    public static final String STAGE = "reconciler";

    /** The parts over the reconciler's connections; order statuses it writes live {@code orderStatusTtl}. */
    public static ReconcilerParts of(DSLContext dsl, UnifiedJedis redis, Duration orderStatusTtl,
                                     KafkaProducer<String, byte[]> producer, Admin admin, Admin repairAdmin,
                                     ServiceHost host) {
        LuaRunner lua = new LuaRunner(redis);
        DeadLetterPublisher deadLetters = new DeadLetterPublisher(producer, STAGE);
        return new ReconcilerParts(dsl, redis, lua, new SaleStore(lua),
                new OrderStatusStore(lua, orderStatusTtl), producer, admin, repairAdmin, deadLetters,
                new UnsupportedRecords(deadLetters, host.meters(), STAGE), Tables.made(),
                new ReconcilerMetrics(host.meters(), host.clock()), host.clock());
    }
}
