package io.seckill.ingress.skus;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.seckill.mysqlstate.Skus;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Duration;
import org.jooq.DSLContext;

/**
 * Whether MySQL defines a sale for a SKU, asked when Redis has none loaded (a SKU MySQL knows is being restored into
 * Redis, answered 503, try again; one it does not know is not for sale, 404) and before a waiting room is read. Asked
 * on the pool of the buyers' other routes, never the buy path's, and remembered, either way, for a second in a bounded
 * cache: a storm on a SKU whose sale Redis lost asks MySQL once a second, and made-up SKUs (each a query) are as many
 * as the rate limit of the route that names them lets through.
 */
public final class KnownSkus {

    private static final Duration REMEMBERED = Duration.ofSeconds(1);
    private static final int MAX_REMEMBERED = 10_000;

    /** What MySQL defines for a SKU. */
    private enum Defined {
        NO_SALE,
        SALE,
        SALE_WITH_ROOM
    }

    private final DSLContext dsl;
    private final Skus skus;
    private final Cache<Long, Defined> known = Caffeine.newBuilder()
            .expireAfterWrite(REMEMBERED)
            .maximumSize(MAX_REMEMBERED)
            .build();

    public KnownSkus(DSLContext dsl, Skus skus) {
        this.dsl = dsl;
        this.skus = skus;
    }

    public boolean defined(long skuId) {
        return definition(skuId) != Defined.NO_SALE;
    }

    /** Whether MySQL defines the SKU's sale with a waiting room: what a room Redis does not hold is checked against. */
    public boolean definedWithRoom(long skuId) {
        return definition(skuId) == Defined.SALE_WITH_ROOM;
    }

    private Defined definition(long skuId) {
        return known.get(skuId, sku -> skus.current(dsl, sku)
                .map(defined -> defined.sale().admissionPerSecond() == null ? Defined.SALE : Defined.SALE_WITH_ROOM)
                .orElse(Defined.NO_SALE));
    }

    /** The answer when Redis has no sale loaded for the SKU: being restored (503, try again) or not for sale (404). */
    public Problem notLoaded(long skuId) {
        return defined(skuId)
                ? new Problem(
                                ErrorCode.SALE_RESTORING,
                                "the sale of SKU " + skuId + " is being restored; try again shortly")
                        .with(Problem.RETRY_AFTER_SECONDS, 1)
                : new Problem(ErrorCode.SKU_NOT_FOUND, "no sale is defined for SKU " + skuId);
    }
}
