package io.seckill.runtime;

import static io.seckill.schemas.db.Tables.ORDERS;
import static io.seckill.schemas.db.Tables.SKU;

import io.seckill.schemas.events.OrderStatus;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/** Reads {@link SkuFigures} from MySQL and Redis. */
public final class SkuFiguresReader {

    private final DSLContext dsl;
    private final SaleStore saleStore;

    public SkuFiguresReader(DSLContext dsl, SaleStore saleStore) {
        this.dsl = dsl;
        this.saleStore = saleStore;
    }

    public Optional<SkuFigures> read(long skuId) {
        Integer mysqlStock = dsl.fetchValue(SKU.STOCK, SKU.ID.eq(skuId));
        if (mysqlStock == null) {
            return Optional.empty();
        }
        BigDecimal confirmed = dsl.select(DSL.sum(ORDERS.QUANTITY)).from(ORDERS)
                .where(ORDERS.SKU_ID.eq(skuId)).and(ORDERS.STATUS.eq(OrderStatus.CONFIRMED.name()))
                .fetchOne(0, BigDecimal.class);
        SaleStore.RedisSkuState redis = saleStore.state(skuId);
        return Optional.of(new SkuFigures(skuId, mysqlStock, redis.stock(), redis.pending(),
                confirmed == null ? 0 : confirmed.longValue()));
    }

    public List<SkuFigures> readAll() {
        return dsl.select(SKU.ID).from(SKU).orderBy(SKU.ID).fetch(SKU.ID).stream()
                .map(this::read)
                .flatMap(Optional::stream)
                .toList();
    }
}
