package io.seckill.ingress;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.SKU;

import io.javalin.http.Context;
import io.seckill.runtime.SaleStore;
import io.seckill.runtime.SkuFigures;
import io.seckill.runtime.SkuFiguresReader;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.DSLContext;

/** Admin endpoints: define a sale (MySQL + Redis) and read a SKU's figures from both stores. */
final class SaleAdmin {

    private final DSLContext dsl;
    private final SaleStore saleStore;
    private final SkuFiguresReader figures;

    SaleAdmin(DSLContext dsl, SaleStore saleStore, SkuFiguresReader figures) {
        this.dsl = dsl;
        this.saleStore = saleStore;
        this.figures = figures;
    }

    /**
     * Creates or replaces a sale. Replacing is refused once the SKU has decided orders or undecided
     * reservations: their stock would be counted twice or lost.
     */
    void put(Context ctx) {
        long skuId = PathParams.skuId(ctx);
        SaleDefinition sale = Json.body(ctx, SaleDefinition.class);
        sale.validate();
        if (dsl.fetchExists(ORDERS, ORDERS.SKU_ID.eq(skuId))) {
            throw new Problem(ErrorCode.SALE_HAS_ORDERS, "SKU " + skuId + " already has orders; define a new SKU instead");
        }
        boolean existed = dsl.fetchExists(SKU, SKU.ID.eq(skuId));
        if (!saleStore.loadSale(skuId, sale.stock(), sale.perUserLimit(), sale.startsAt().toEpochMilli(), sale.endsAt().toEpochMilli())) {
            throw new Problem(ErrorCode.SALE_IN_PROGRESS, "SKU " + skuId + " has reservations still being decided");
        }
        LocalDateTime startsAt = LocalDateTime.ofInstant(sale.startsAt(), ZoneOffset.UTC);
        LocalDateTime endsAt = LocalDateTime.ofInstant(sale.endsAt(), ZoneOffset.UTC);
        dsl.insertInto(SKU)
                .set(SKU.ID, skuId).set(SKU.NAME, sale.name())
                .set(SKU.INITIAL_STOCK, sale.stock()).set(SKU.STOCK, sale.stock())
                .set(SKU.PER_USER_LIMIT, sale.perUserLimit())
                .set(SKU.STARTS_AT, startsAt).set(SKU.ENDS_AT, endsAt)
                .onDuplicateKeyUpdate()
                .set(SKU.NAME, sale.name())
                .set(SKU.INITIAL_STOCK, sale.stock()).set(SKU.STOCK, sale.stock())
                .set(SKU.PER_USER_LIMIT, sale.perUserLimit())
                .set(SKU.STARTS_AT, startsAt).set(SKU.ENDS_AT, endsAt)
                .set(SKU.VERSION, SKU.VERSION.plus(1))
                .set(SKU.UPDATED_AT, LocalDateTime.now(ZoneOffset.UTC))
                .execute();
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
        SkuFigures sku = figures.read(skuId)
                .orElseThrow(() -> new Problem(ErrorCode.SKU_NOT_FOUND, "no sale is defined for SKU " + skuId));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("skuId", sku.skuId());
        body.put("mysqlStock", sku.mysqlStock());
        body.put("redisStock", sku.redisStock());
        body.put("pendingReservations", sku.pendingReservations());
        body.put("confirmedQuantity", sku.confirmedQuantity());
        Json.respond(ctx, 200, body);
    }
}
