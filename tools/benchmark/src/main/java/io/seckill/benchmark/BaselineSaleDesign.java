package io.seckill.benchmark;

import io.seckill.baselines.BaselineSql;
import io.seckill.baselines.RedisQueueDesign;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.UnifiedJedis;

/**
 * A baseline design that sells ({@code naive} or {@code redis-queue}) as a JVM process of its own beside the
 * development servers ({@link BaselineProcess}); its orders in its own tables ({@code naive_*}, {@code rq_*}).
 */
final class BaselineSaleDesign implements SaleDesign {

    private final Design design;
    private final BaselineSql tables;
    private final BaselineProcess process;
    private final int port;
    private final SaleQueries queries;
    private final UnifiedJedis redis;

    private BaselineSaleDesign(
            Design design, BaselineProcess process, int port, SaleQueries queries, UnifiedJedis redis) {
        this.design = design;
        this.tables = design.baseline().tables();
        this.process = process;
        this.port = port;
        this.queries = queries;
        this.redis = redis;
    }

    static BaselineSaleDesign start(
            Design design,
            Path repository,
            Map<String, String> serverSettings,
            Path logs,
            int port,
            SaleQueries queries,
            UnifiedJedis redis)
            throws IOException, InterruptedException {
        return new BaselineSaleDesign(
                design, BaselineProcess.start(design, repository, serverSettings, logs, port), port, queries, redis);
    }

    @Override
    public Design design() {
        return design;
    }

    @Override
    public int port() {
        return port;
    }

    /** The baselines have no per-unit limit: one order per buyer and SKU (their unique key), of any quantity. */
    @Override
    public Map<String, String> passes(List<WholeSaleLoad.Attempt> attempts) {
        return Map.of();
    }

    @Override
    public void defineSales(List<Long> skus, int units, int perBuyer) throws Exception {
        for (long sku : skus) {
            queries.execute("INSERT INTO " + tables.skus() + " (id, stock) VALUES (?, ?)", sku, units);
            if (redis != null) {
                redis.set(RedisQueueDesign.stockKey(sku), Integer.toString(units));
                redis.del(RedisQueueDesign.buyersKey(sku));
            }
        }
    }

    @Override
    public Map<String, Instant> committed(Collection<String> orderIds) throws Exception {
        return queries.committed(
                "SELECT order_id, created_at FROM " + tables.orders() + " WHERE order_id IN ({0})", orderIds);
    }

    @Override
    public Map<Long, Long> soldUnits(List<Long> skus) throws Exception {
        return queries.sums(
                "SELECT sku_id, SUM(quantity) FROM " + tables.orders() + " WHERE sku_id IN ({0}) GROUP BY sku_id",
                skus,
                Long.class);
    }

    @Override
    public Map<String, Long> unitsPerBuyer(List<Long> skus) throws Exception {
        return queries.sums(
                "SELECT CONCAT(sku_id, ':', user_id), SUM(quantity) FROM " + tables.orders()
                        + " WHERE sku_id IN ({0}) GROUP BY sku_id, user_id",
                skus,
                String.class);
    }

    /** redis-queue: Redis stock - MySQL stock; naive has one store. */
    @Override
    public Map<Long, Long> drift(List<Long> skus) throws Exception {
        Map<Long, Long> drift = new HashMap<>();
        for (long sku : skus) {
            long mysql = queries.single("SELECT stock FROM " + tables.skus() + " WHERE id = ?", sku);
            drift.put(sku, redis == null ? 0 : Long.parseLong(redis.get(RedisQueueDesign.stockKey(sku))) - mysql);
        }
        return drift;
    }

    @Override
    public void close() {
        process.close();
    }
}
