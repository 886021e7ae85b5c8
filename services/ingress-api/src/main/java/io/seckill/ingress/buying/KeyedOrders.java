package io.seckill.ingress.buying;

import io.seckill.ingress.http.IdempotentReplies;
import io.seckill.mysqlstate.Outbox;
import io.seckill.mysqlstate.OutboxLookups;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.time.Clock;
import java.util.Optional;
import org.jooq.DSLContext;

/**
 * Orders made under an Idempotency-Key, as MySQL keeps them with their outbox row: the answer to a
 * retry when Redis no longer holds the key (lost, expired, or its first request never stored its reply).
 * Looked up on every keyed buy that was not accepted, the sold-out ones too (an order made under the key
 * before the sale sold out is still the key's answer), so on the pool of the buyers' other routes
 * ({@code queries}): a flood of keyed refusals never takes a connection the outbox writes need. Only the
 * rare fence is written on the buy path's pool ({@code dsl}).
 */
public record KeyedOrders(DSLContext dsl, DSLContext queries, Outbox outbox, OutboxLookups lookups, Clock clock) {

    /**
     * @return the order this buyer made with this key, if any
     * @throws Problem when the key was used for another SKU
     */
    Optional<String> earlierOrder(String userId, String key, long skuId) {
        return lookups.orderForKey(queries, userId, key).map(order -> {
            if (order.skuId() != skuId) {
                throw new Problem(
                        ErrorCode.IDEMPOTENCY_KEY_REUSED,
                        IdempotentReplies.HEADER + " " + key + " was used for a different request");
            }
            return order.orderId();
        });
    }

    /**
     * Before a refusal becomes the key's answer while an earlier request with the key may still record its
     * order (it lost its claim by a pause): fences the key in MySQL, so that order can no longer be recorded
     * (its insert fails, its reservation goes back), unless it already was.
     * @return the order recorded under the key before the fence, if one was
     */
    Optional<String> fenceOff(String userId, String key, long skuId) {
        outbox.fenceKey(dsl, userId, skuId, key, clock.instant());
        return earlierOrder(userId, key, skuId);
    }
}
