package io.seckill.ingress.buying;

import io.seckill.mysqlstate.Outbox;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.OrderView;
import io.seckill.redisstate.SaleStore;
import io.seckill.schemas.events.OrderFacts;
import io.seckill.schemas.events.OrderRequested;
import io.seckill.schemas.events.OrderStatus;
import io.seckill.schemas.events.RejectReason;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Settles what became of an order whose outbox write failed or timed out. The failure alone does not
 * say: a timed-out insert may still commit once MySQL moves again, and a failed commit may have
 * committed. So a fence row is written under the order's id ({@link Outbox#voidUnrecorded}): if it
 * goes in, the order was not recorded and never will be, and only then is its reservation released;
 * if the order's own row is there, it was recorded after all. When MySQL does not answer within the
 * wait, the outcome stays unknown; the fence goes on in the background, and the reconciler's sweep
 * settles whatever it could not.
 */
public final class OrderFence implements AutoCloseable {

    /** What became of the order. */
    enum Fate {
        /** Its row is committed: it goes on to be decided. */
        RECORDED,
        /** A fence holds its id: never recorded, its reservation is released. */
        VOIDED,
        /** MySQL did not say in time. */
        UNKNOWN
    }

    private static final Logger LOG = LoggerFactory.getLogger(OrderFence.class);
    public static final Duration WAIT = Duration.ofSeconds(3);
    private static final int THREADS = 4;

    private final DSLContext dsl;
    private final Outbox outbox;
    private final SaleStore saleStore;
    private final OrderStatusStore statuses;
    private final Clock clock;
    private final AtomicInteger threads = new AtomicInteger();
    private final ExecutorService fencers = Executors.newFixedThreadPool(THREADS, task -> {
        Thread thread = new Thread(task, "order-fence-" + threads.getAndIncrement());
        thread.setDaemon(true);
        return thread;
    });

    public OrderFence(DSLContext dsl, Outbox outbox, SaleStore saleStore, OrderStatusStore statuses, Clock clock) {
        this.dsl = dsl;
        this.outbox = outbox;
        this.saleStore = saleStore;
        this.statuses = statuses;
        this.clock = clock;
    }

    Fate settle(OrderRequested order) {
        CompletableFuture<Fate> fate = CompletableFuture.supplyAsync(() -> fence(order), fencers);
        try {
            return fate.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            LOG.warn(
                    "order {}: cannot tell whether it was recorded ({}); the reconciler's sweep settles it",
                    order.orderId(),
                    e.toString());
            return Fate.UNKNOWN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Fate.UNKNOWN;
        }
    }

    private Fate fence(OrderRequested order) {
        if (!outbox.voidUnrecorded(dsl, List.of(OrderFacts.of(order)), clock.instant()).contains(order.orderId())) {
            return Fate.RECORDED;
        }
        return release(order);
    }

    /**
     * Releases the order's reservation: it was fenced off, or its insert was refused by the database
     * ({@link io.seckill.mysqlstate.SqlFailures#refusedStatement}: it left nothing, and nothing retries it).
     */
    Fate release(OrderRequested order) {
        saleStore.release(order.skuId(), order.orderId(), order.userId());
        statuses.putAll(List.of(new OrderView(OrderFacts.of(order), OrderStatus.REJECTED, RejectReason.NOT_RECORDED)));
        return Fate.VOIDED;
    }

    @Override
    public void close() {
        fencers.shutdown();
    }
}
