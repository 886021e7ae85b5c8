package io.seckill.ingress.buying;

import io.seckill.ingress.http.ErrorCode;
import io.seckill.ingress.http.IdempotentReplies;
import io.seckill.ingress.http.Problem;
import io.seckill.mysqlstate.OutboxLookups;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * Orders made under an Idempotency-Key, as MySQL keeps them with their outbox row: the answer to a
 * retry when Redis no longer holds the key (lost, expired, or its first request never stored its reply).
 */
public record KeyedOrders(DSLContext dsl, OutboxLookups outbox) {

    /**
     * @return the order this buyer made with this key, if any
     * @throws Problem when the key was used for another SKU
     */
    Optional<String> earlierOrder(String userId, String key, long skuId) {
        return outbox.orderForKey(dsl, userId, key).map(order -> {
            if (order.skuId() != skuId) {
                throw new Problem(ErrorCode.IDEMPOTENCY_KEY_REUSED, IdempotentReplies.HEADER + " " + key + " was used for a different request");
            }
            return order.orderId();
        });
    }
}
