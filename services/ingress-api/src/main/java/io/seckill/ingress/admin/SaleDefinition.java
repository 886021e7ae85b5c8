package io.seckill.ingress.admin;

import io.seckill.redisstate.SkuKeys;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Instant;

/**
 * Body of {@code PUT /admin/v1/skus/{skuId}}. {@code passRequired}: buying needs a sale pass; a sale opts out
 * with {@code false}, and one that says nothing wants passes. {@code stockBuckets}: how many buckets the stock is split
 * over in Redis (1 to 64, at most the stock); absent, the ingress chooses. {@code admissionPerSecond}: the sale has a
 * waiting room admitting this many buyers a second to their passes (so it needs passes); absent, it has none.
 */
public record SaleDefinition(
        String name,
        Integer stock,
        Integer perUserLimit,
        Instant startsAt,
        Instant endsAt,
        Boolean passRequired,
        Integer stockBuckets,
        Integer admissionPerSecond) {

    static final int MAX_STOCK = 100_000_000;
    static final int MOST_ADMITTED_PER_SECOND = 1_000_000;

    boolean passRequiredOrDefault() {
        return passRequired == null || passRequired;
    }

    void validate() {
        if (name == null || name.isBlank() || name.length() > 200) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "name must be 1-200 characters");
        }
        if (stock == null || stock < 0 || stock > MAX_STOCK) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "stock must be an integer from 0 to " + MAX_STOCK);
        }
        if (perUserLimit == null || perUserLimit < 1) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "perUserLimit must be a positive integer");
        }
        if (startsAt == null || endsAt == null) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "startsAt and endsAt are required (ISO-8601 instants)");
        }
        if (stockBuckets != null
                && (stockBuckets < 1 || stockBuckets > SkuKeys.MOST_BUCKETS || stockBuckets > Math.max(1, stock))) {
            throw new Problem(
                    ErrorCode.VALIDATION_FAILED,
                    "stockBuckets must be an integer from 1 to " + SkuKeys.MOST_BUCKETS + " and at most the stock ("
                            + stock + ")");
        }
        if (admissionPerSecond != null && (admissionPerSecond < 1 || admissionPerSecond > MOST_ADMITTED_PER_SECOND)) {
            throw new Problem(
                    ErrorCode.VALIDATION_FAILED,
                    "admissionPerSecond must be an integer from 1 to " + MOST_ADMITTED_PER_SECOND);
        }
        if (admissionPerSecond != null && !passRequiredOrDefault()) {
            throw new Problem(
                    ErrorCode.VALIDATION_FAILED,
                    "a waiting room admits buyers to their sale passes: admissionPerSecond needs passRequired");
        }
        if (!endsAt.isAfter(startsAt)) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "endsAt must be after startsAt");
        }
    }
}
