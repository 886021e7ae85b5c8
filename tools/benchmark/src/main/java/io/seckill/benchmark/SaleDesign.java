package io.seckill.benchmark;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * One design in the whole-sale comparison, as the load generator and the checks see it: where buyers
 * send their requests, how a sale is defined, and what MySQL (and Redis) hold afterwards.
 */
interface SaleDesign extends AutoCloseable {

    /** Which design this is (its name in the report). */
    Design design();

    /** The port buyers' requests go to (its buy route is {@code POST /api/v1/skus/{skuId}/orders}). */
    int port();

    /** Defines a sale of {@code units} on each SKU, open now, at most {@code perBuyer} units a buyer. */
    void defineSales(List<Long> skus, int units, int perBuyer) throws Exception;

    /** Defines the sales of an untimed warm-up: as {@link #defineSales}, bought without passes. */
    default void defineWarmUpSales(List<Long> skus, int units, int perBuyer) throws Exception {
        defineSales(skus, units, perBuyer);
    }

    /** Whether its buyers get passes ({@link #passes}) before a sale. */
    default boolean needsPasses() {
        return false;
    }

    /**
     * The sale passes these attempts' buyers get before the sale opens, by "sku:buyer" ({@link WholeSaleLoad#passKey});
     * none for a design without passes.
     */
    Map<String, String> passes(List<WholeSaleLoad.Attempt> attempts) throws Exception;

    /** Which of these orders are decided in MySQL, each with the time the design wrote in its row. */
    Map<String, Instant> committed(Collection<String> orderIds) throws Exception;

    /** Units MySQL holds as sold, per SKU. */
    Map<Long, Long> soldUnits(List<Long> skus) throws Exception;

    /** Units each buyer holds in MySQL of each of these SKUs, by "sku:buyer". */
    Map<String, Long> unitsPerBuyer(List<Long> skus) throws Exception;

    /**
     * Per SKU, what the fast store would still sell minus what MySQL holds (0 for a design with one store), at rest.
     */
    Map<Long, Long> drift(List<Long> skus) throws Exception;

    @Override
    void close();
}
