package io.seckill.ingress.admin;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.util.regex.Pattern;

/** Body of {@code POST /admin/v1/skus/{skuId}/stock-adjustments}. */
public record StockAdjustmentRequest(String adjustmentId, Integer delta, String reason) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_.:-]{1,64}");

    void validate() {
        if (adjustmentId == null || !ID.matcher(adjustmentId).matches()) {
            throw new Problem(
                    ErrorCode.VALIDATION_FAILED, "adjustmentId must be 1-64 characters of A-Z a-z 0-9 _ . : -");
        }
        if (delta == null || delta == 0 || Math.abs((long) delta) > SaleDefinition.MAX_STOCK) {
            throw new Problem(
                    ErrorCode.VALIDATION_FAILED,
                    "delta must be a non-zero integer from -" + SaleDefinition.MAX_STOCK + " to "
                            + SaleDefinition.MAX_STOCK);
        }
        if (reason == null || reason.isBlank() || reason.length() > 200) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "reason must be 1-200 characters");
        }
    }
}
