package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@link StockBucketsContract} on a Redis Cluster of three primaries, where a SKU's buckets live on different
 * primaries.
 */
class StockBucketsClusterIT extends StockBucketsContract {

    @Test
    void aSkuOfAsManyBucketsAsPrimariesHasOneOnEach() {
        List<RedisPrimaries.Primary> primaries = RedisPrimaries.of(RedisFixture.REDIS);
        for (long sku = 1; sku <= 50; sku++) {
            SaleLayout layout = new SaleLayout(sku, primaries.size());
            Set<String> holders = layout.all().stream()
                    .map(bucket -> primaries.stream()
                            .filter(primary -> primary.servesSlot(JedisClusterCRC16.getSlot(bucket.stock())))
                            .findFirst()
                            .orElseThrow()
                            .address())
                    .collect(Collectors.toSet());
            assertThat(holders).as("SKU %d's buckets", sku).hasSize(primaries.size());
        }
    }
}
