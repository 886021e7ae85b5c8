package io.seckill.ingress;

import io.javalin.http.Context;
import io.seckill.mysqlstate.Orders;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.SaleStore;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;

/** Admin endpoints: define a sale (MySQL + Redis) and read a SKU's figures from both stores. */
record SaleAdmin(DSLContext dsl, Skus skus, Orders orders, SaleStore saleStore, Clock clock) {

    /**
     * Creates or replaces a sale. Replacing is refused once the SKU has decided orders or undecided
     * reservations: their stock would be counted twice or lost.
     */
    void put(Context ctx) {
        long skuId = PathParams.skuId(ctx);
        SaleDefinition sale = Json.body(ctx, SaleDefinition.class);
        sale.validate();
        if (orders.anyFor(dsl, skuId)) {
            throw new Problem(ErrorCode.SALE_HAS_ORDERS, "SKU " + skuId + " already has orders; define a new SKU instead");
        }
        boolean existed = skus.exists(dsl, skuId);
        Skus.Sale loaded = switch (saleStore.loadSale(skuId, sale.stock(), sale.perUserLimit(),
                sale.startsAt().toEpochMilli(), sale.endsAt().toEpochMilli())) {
            case LOADED -> new Skus.Sale(skuId, sale.name(), sale.stock(), sale.perUserLimit(), sale.startsAt(), sale.endsAt());
            case IN_FLIGHT -> throw new Problem(ErrorCode.SALE_IN_PROGRESS, "SKU " + skuId + " has reservations still being decided");
        };
        skus.define(dsl, loaded, clock.instant());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("skuId", skuId);
        body.put("name", sale.name());
        body.put("stock", sale.stock());
        body.put("perUserLimit", sale.perUserLimit());
        body.put("startsAt", sale.startsAt());
        body.put("endsAt", sale.endsAt());
        Json.respond(ctx, existed ? 200 : 201, body);
    }

    void get(Context ctx) {
        long skuId = PathParams.skuId(ctx);
        int mysqlStock = skus.stock(dsl, skuId)
                .orElseThrow(() -> new Problem(ErrorCode.SKU_NOT_FOUND, "no sale is defined for SKU " + skuId));
        SaleStore.RedisSkuState redis = saleStore.state(skuId);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("skuId", skuId);
        body.put("mysqlStock", mysqlStock);
        body.put("redisStock", redis.stock());
        body.put("pendingReservations", redis.pending());
        body.put("confirmedQuantity", orders.confirmedQuantity(dsl, skuId));
        Json.respond(ctx, 200, body);
    }
}
