package io.seckill.redisstate;

/**
 * Redis keys that do not belong to one SKU.
 * <ul>
 *   <li>{@code seckill:order:{ORDER_ID}}: hash of an order's status for buyers polling it (expires)</li>
 *   <li>{@code seckill:idempotency:{USER}:KEY}: hash of a buy request's stored outcome (expires)</li>
 *   <li>{@code seckill:ratelimit:SCOPE:{user:USER}} and {@code seckill:ratelimit:SCOPE:{ip:ADDRESS}}: one rate-limit
 *       counter each (its next request's theoretical arrival time), tagged by the buyer or the address: on Redis
 *       Cluster the counters spread over every primary, and no key is touched by every request.</li>
 *   <li>{@code seckill:pass:spent:{CHALLENGE}}: a sale-pass challenge already answered, kept until the challenge
 *       expires (a replayed answer is refused)</li>
 * </ul>
 */
final class GlobalKeys {

    private GlobalKeys() {
    }

    static String orderStatus(String orderId) {
        return "seckill:order:{" + orderId + "}";
    }

    static String idempotency(String userId, String key) {
        return "seckill:idempotency:{" + userId + "}:" + key;
    }

    static String spentChallenge(String challengeId) {
        return "seckill:pass:spent:{" + challengeId + "}";
    }

    static String userRate(String scope, String userId) {
        return "seckill:ratelimit:" + scope + ":{user:" + userId + "}";
    }

    static String addressRate(String scope, String address) {
        return "seckill:ratelimit:" + scope + ":{ip:" + address + "}";
    }
}
