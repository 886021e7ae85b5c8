package io.seckill.ingress.admin;

import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.seckill.ingress.features.Feature;
import io.seckill.ingress.features.IngressParts;
import io.seckill.ingress.http.Json;
import io.seckill.ingress.http.PathParams;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.mysqlstate.SaleDefinitions;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.SaleStore;
import io.seckill.redisstate.WaitingRoom;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Clock;
import java.time.Instant;
import org.jooq.DSLContext;

/**
 * Admin endpoints: define a sale, MySQL first, and read a SKU's figures from both stores.
 *
 * <p>A definition closes the sale in Redis (refused while reservations are undecided), defines it in
 * MySQL (refused once the SKU has orders: their stock would be counted twice or lost), then loads
 * Redis from what MySQL then holds, with MySQL's version: concurrent definitions end with the newest in
 * both stores, and a definition MySQL refused or failed leaves both as they were.
 */
public record SaleDesk(
        DSLContext dsl,
        Skus skus,
        SaleDefinitions definitions,
        Orders orders,
        OutboxLookups outbox,
        SaleStore saleStore,
        WaitingRoom waitingRoom,
        Clock clock)
        implements Feature {

    /** Sales defined through the admin's pool. */
    public static SaleDesk of(IngressParts parts) {
        return new SaleDesk(
                parts.admin(),
                parts.skus(),
                new SaleDefinitions(),
                parts.orders(),
                parts.outboxRows(),
                parts.saleStore(),
                parts.waitingRoom(),
                parts.clock());
    }

    @Override
    public void adminRoutes(JavalinConfig admin) {
        admin.routes.put("/admin/v1/skus/{skuId}", this::put);
        admin.routes.get("/admin/v1/skus/{skuId}", this::get);
    }


    public void put(Context ctx) {
        long skuId = PathParams.skuId(ctx);
        SaleDefinition sale = Json.body(ctx, SaleDefinition.class);
        sale.validate();
        // Checked again under the row lock below; asked first so that a refused definition does not close a live sale.
        if (orders.anyFor(dsl, skuId) || outbox.anyFor(dsl, skuId)) {
            throw hasOrders(skuId);
        }
        if (!saleStore.closeSale(skuId)) {
            reopen(skuId);
            throw new Problem(ErrorCode.SALE_IN_PROGRESS, "SKU " + skuId + " has reservations still being decided");
        }
        SaleDefinitions.Defined defined;
        try {
            defined = definitions.define(
                    dsl,
                    new Skus.Sale(
                            skuId,
                            sale.name(),
                            sale.stock(),
                            sale.perUserLimit(),
                            sale.startsAt(),
                            sale.endsAt(),
                            sale.passRequiredOrDefault(),
                            saleStore.bucketsFor(sale.stockBuckets(), sale.stock()),
                            sale.admissionPerSecond()),
                    clock.instant());
        } catch (RuntimeException e) {
            reopen(skuId);
            throw e;
        }
        int status = switch (defined.outcome()) {
            case CREATED -> 201;
            case REPLACED -> 200;
            case HAS_ORDERS -> {
                reopen(skuId);
                throw hasOrders(skuId);
            }
        };
        Skus.Sale loaded = load(defined.sale());
        Json.respond(
                ctx,
                status,
                new DefinedSale(
                        skuId,
                        loaded.name(),
                        loaded.stock(),
                        loaded.perUserLimit(),
                        loaded.startsAt(),
                        loaded.endsAt(),
                        loaded.passRequired(),
                        loaded.bucketsOrOne(),
                        loaded.admissionPerSecond()));
    }

    /** The answer to a definition: the sale as both stores now hold it. */
    record DefinedSale(
            long skuId,
            String name,
            int stock,
            int perUserLimit,
            Instant startsAt,
            Instant endsAt,
            boolean passRequired,
            int stockBuckets,
            Integer admissionPerSecond) {}

    /** {@code GET /admin/v1/skus/{skuId}}: the sale's figures in each store. */
    record SaleFigures(
            long skuId,
            int mysqlStock,
            long redisStock,
            long pendingReservations,
            int stockBuckets,
            long confirmedQuantity,
            long paidQuantity) {}

    /**
     * Loads what MySQL holds, its stock over the buckets MySQL holds and its waiting room; a newer definition already
     * loaded stays (STALE).
     */
    private Skus.Sale load(Skus.VersionedSale defined) {
        Skus.Sale sale = defined.sale();
        // The room before the sale: a sale that sells is never without the room its definition gave it.
        waitingRoom.define(
                sale.skuId(),
                defined.version(),
                sale.admissionPerSecond(),
                sale.bucketsOrOne(),
                sale.startsAt().toEpochMilli(),
                sale.endsAt().toEpochMilli());
        return switch (saleStore.loadSale(
                sale.skuId(),
                sale.stock(),
                sale.bucketsOrOne(),
                sale.perUserLimit(),
                sale.startsAt().toEpochMilli(),
                sale.endsAt().toEpochMilli(),
                defined.version(),
                sale.passRequired())) {
            case LOADED, STALE -> sale;
            case IN_FLIGHT ->
                throw new Problem(
                        ErrorCode.SALE_IN_PROGRESS, "SKU " + sale.skuId() + " has reservations still being decided");
        };
    }

    /** The definition did not happen: the sale MySQL still holds is sold again as it was. */
    private void reopen(long skuId) {
        skus.current(dsl, skuId).ifPresent(current -> saleStore.reopenSale(skuId, current.sale().perUserLimit(),
                current.sale().startsAt().toEpochMilli(), current.sale().endsAt().toEpochMilli(), current.version(),
                current.sale().passRequired()));
    }

    private static Problem hasOrders(long skuId) {
        return new Problem(ErrorCode.SALE_HAS_ORDERS, "SKU " + skuId + " already has orders; define a new SKU instead");
    }

    public void get(Context ctx) {
        long skuId = PathParams.skuId(ctx);
        int mysqlStock = skus.stock(dsl, skuId)
                .orElseThrow(() -> new Problem(ErrorCode.SKU_NOT_FOUND, "no sale is defined for SKU " + skuId));
        SaleStore.RedisSkuState redis = saleStore.state(skuId);
        Json.respond(
                ctx,
                200,
                new SaleFigures(
                        skuId,
                        mysqlStock,
                        redis.stock(),
                        redis.pending(),
                        saleStore.layout(skuId).buckets(),
                        orders.confirmedQuantity(dsl, skuId),
                        orders.paidQuantity(dsl, skuId)));
    }
}
