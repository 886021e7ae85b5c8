package io.seckill.ingress.buying;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;

/** Body of {@code POST /api/v1/skus/{skuId}/orders}. */
public record BuyRequest(Integer quantity) {

    static final int MAX_QUANTITY = 1_000;

    int validQuantity() {
        if (quantity == null) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "quantity is required");
        }
        if (quantity < 1 || quantity > MAX_QUANTITY) {
            throw new Problem(
                    ErrorCode.VALIDATION_FAILED, "quantity must be from 1 to " + MAX_QUANTITY + ", was " + quantity);
        }
        return quantity;
    }
}
