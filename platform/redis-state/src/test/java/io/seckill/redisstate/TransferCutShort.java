package io.seckill.redisstate;

import io.seckill.config.Env;
import io.seckill.config.RedisAddress;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * A process that takes units out of one bucket for another (a transfer's first step) and dies before the second, as a
 * process killed between them would: what {@link StockBucketsContract} finishes afterwards. Its Redis is named by the
 * environment ({@code SECKILL_REDIS_URL}, {@code SECKILL_REDIS_TOPOLOGY}).
 * Arguments: skuId, buckets, donor bucket, receiving bucket, units wanted, transfer id.
 */
public final class TransferCutShort {

    /** The exit status that says the first step was taken and the process then died. */
    static final int CUT = 137;

    private TransferCutShort() {
    }

    public static void main(String[] args) {
        long skuId = Long.parseLong(args[0]);
        int buckets = Integer.parseInt(args[1]);
        UnifiedJedis redis = RedisConnections.open(RedisAddress.from(new Env(System.getenv())), 2);
        LuaRunner lua = new LuaRunner(redis);
        SkuKeys donor = new SkuKeys(skuId, Integer.parseInt(args[2]), buckets);
        List<?> taken =
                (List<?>) lua.run(LuaScript.TRANSFER_OUT, donor.scriptKeys(), List.of(args[5], args[3], args[4]));
        System.out.println("took " + taken.get(0));
        System.out.flush();
        Runtime.getRuntime().halt(((Number) taken.get(0)).longValue() > 0 ? CUT : 1);
    }
}
