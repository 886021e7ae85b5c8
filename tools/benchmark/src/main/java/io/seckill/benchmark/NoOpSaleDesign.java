package io.seckill.benchmark;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The no-op design ({@link Design#NO_OP}): the HTTP stack alone, answering every buy 409 from memory. It sells nothing
 * and keeps nothing, so its stores always hold what it sold: nothing. Its requests/s are what the machine can answer at
 * all, the share every other design's is given as.
 */
final class NoOpSaleDesign implements SaleDesign {

    private final BaselineProcess process;
    private final int port;

    private NoOpSaleDesign(BaselineProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    static NoOpSaleDesign start(Path repository, Map<String, String> serverSettings, Path logs, int port)
            throws IOException, InterruptedException {
        return new NoOpSaleDesign(BaselineProcess.start(Design.NO_OP, repository, serverSettings, logs, port), port);
    }

    @Override
    public Design design() {
        return Design.NO_OP;
    }

    @Override
    public int port() {
        return port;
    }

    /** Nothing to define: every buy is answered sold out. */
    @Override
    public void defineSales(List<Long> skus, int units, int perBuyer) {
    }

    @Override
    public Map<String, String> passes(List<WholeSaleLoad.Attempt> attempts) {
        return Map.of();
    }

    @Override
    public Map<String, Instant> committed(Collection<String> orderIds) {
        return Map.of();
    }

    @Override
    public Map<Long, Long> soldUnits(List<Long> skus) {
        return none(skus);
    }

    @Override
    public Map<String, Long> unitsPerBuyer(List<Long> skus) {
        return Map.of();
    }

    @Override
    public Map<Long, Long> drift(List<Long> skus) {
        return none(skus);
    }

    private static Map<Long, Long> none(List<Long> skus) {
        return skus.stream().collect(Collectors.toMap(Function.identity(), sku -> 0L));
    }

    @Override
    public void close() {
        process.close();
    }
}
