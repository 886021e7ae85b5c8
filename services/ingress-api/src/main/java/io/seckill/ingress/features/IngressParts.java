package io.seckill.ingress.features;

import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.ingress.http.IdempotentReplies;
import io.seckill.ingress.http.RateLimiter;
import io.seckill.ingress.http.TrustedProxies;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.ingress.metrics.IngressMetrics;
import io.seckill.ingress.skus.KnownSkus;
import io.seckill.ingress.rooms.RoomFigures;
import io.seckill.ingress.skus.SoldOutMemory;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.OrderStatusStore;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
import java.time.Clock;
import org.jooq.DSLContext;

/**
 * What the ingress's features share, each made once: the three pools (the buy path's, the buyers' other queries',
 * the admin's), the Redis stores, who the buyer is and how often they may ask, the passes and waiting rooms, the SKUs
 * known, the tables read, the metrics and the clock. A feature builds its desks from these and its own settings.
 *
 * @param dsl the buy path's pool
 * @param queries the buyers' other routes' pool, which fails fast when busy so the buy path keeps its own
 * @param admin the admin listener's pool, as the account that may write stock
 */
public record IngressParts(
        DSLContext dsl,
        DSLContext queries,
        DSLContext admin,
        LuaRunner lua,
        SaleStore saleStore,
        OrderStatusStore statuses,
        RateLimitCounters rateLimitCounters,
        BuyerIdentity identity,
        RateLimiter rateLimiter,
        TrustedProxies trustedProxies,
        SalePasses passes,
        WaitingRoom waitingRoom,
        RoomFigures rooms,
        QueueTickets queueTickets,
        KnownSkus knownSkus,
        SoldOutMemory soldOut,
        IdempotentReplies idempotent,
        Orders orders,
        OutboxLookups outboxRows,
        Skus skus,
        IngressMetrics metrics,
        Clock clock) {}
