package io.seckill.ingress.orders;

import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.util.regex.Pattern;

/** Body of {@code POST /api/v1/orders/{orderId}/payment}: the payment provider's reference of the payment. */
public record PaymentRequest(String paymentReference) {

    private static final Pattern REFERENCE = Pattern.compile("[\\x21-\\x7e]{1,128}");

    String validReference() {
        if (paymentReference == null) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "paymentReference is required");
        }
        if (!REFERENCE.matcher(paymentReference).matches()) {
            throw new Problem(
                    ErrorCode.VALIDATION_FAILED,
                    "paymentReference must be 1-128 printable ASCII characters without spaces");
        }
        return paymentReference;
    }
}
