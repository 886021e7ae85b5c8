package io.seckill.ingress.buying;

import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.ingress.skus.SoldOutMemory;
import io.seckill.mysqlstate.Outbox;
import io.seckill.runtime.OpenedResources;
import java.time.Duration;
import org.apache.kafka.clients.producer.Producer;

/**
 * The buy path's parts every buy desk shares, the service's and the warm-up's: the outbox's writers, the fence, the
 * keyed orders and the publisher. Who buys, the passes, the limits, the metrics and the sold-out memory are each
 * desk's own.
 *
 * @param parts the ingress's shared parts
 */
public record BuyPath(
        IngressParts parts, OutboxWriter outbox, OrderFence fence, KeyedOrders keyedOrders, OrderPublisher publisher) {

    /**
     * Opens the buy path's parts into {@code opened}.
     * @param relayGrace how long an unpublished order waits before the relay sends it
     * @param outboxWait how long a buy waits for its outbox row before answering 503
     * @param outboxWriters the threads writing outbox rows in batches
     */
    public static BuyPath open(
            IngressParts parts,
            Producer<String, byte[]> producer,
            Duration relayGrace,
            Duration outboxWait,
            int outboxWriters,
            OpenedResources opened) {
        Outbox outbox = new Outbox();
        return new BuyPath(
                parts,
                opened.add(new OutboxWriter(
                        parts.dsl(), outbox, parts.statuses(), relayGrace, outboxWait, outboxWriters, parts.metrics())),
                opened.add(new OrderFence(parts.dsl(), outbox, parts.saleStore(), parts.statuses(), parts.clock())),
                new KeyedOrders(parts.dsl(), parts.queries(), outbox, parts.outboxRows(), parts.clock()),
                new OrderPublisher(producer));
    }

    /** The buyers' desk, with the ingress's own identity, passes, limits, metrics and sold-out memory. */
    public OrderDesk desk() {
        return desk(parts.identity(), parts.passes(), parts.rateLimiter(), parts.metrics(), parts.soldOut());
    }

    /** A desk with its own identity, passes, limits, metrics and sold-out memory. */
    public OrderDesk desk(
            BuyerIdentity identity,
            SalePasses passes,
            RateLimiter rateLimiter,
            IngressMetrics metrics,
            SoldOutMemory soldOut) {
        return new OrderDesk(
                identity,
                passes,
                parts.saleStore(),
                outbox,
                fence,
                keyedOrders,
                parts.knownSkus(),
                publisher,
                soldOut,
                rateLimiter,
                parts.idempotent(),
                metrics,
                parts.clock());
    }
}
