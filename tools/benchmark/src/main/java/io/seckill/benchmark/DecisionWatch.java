package io.seckill.benchmark;

import java.util.Collection;
import java.util.HashSet;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * When each accepted order was first seen decided in MySQL, by the benchmark itself: a thread polls the design's
 * table every {@value #POLL_MS} ms for the orders answered so far and not yet seen. One end point for every design,
 * read from outside it: the decision's commit (what a reader of MySQL can see), late by at most a poll, whatever
 * timestamp the design writes in its row.
 */
final class DecisionWatch implements AutoCloseable {

    static final long POLL_MS = 20;

    private final SaleDesign design;
    private final Queue<String> expected = new ConcurrentLinkedQueue<>();
    private final Map<String, Long> seenAtMs = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean watching = true;
    private volatile Exception failure;

    private DecisionWatch(SaleDesign design) {
        this.design = design;
        this.thread = new Thread(this::watch, "decision-watch");
        thread.setDaemon(true);
    }

    static DecisionWatch start(SaleDesign design) {
        DecisionWatch watch = new DecisionWatch(design);
        watch.thread.start();
        return watch;
    }

    /** An order answered as accepted: watched from now on. */
    void expect(String orderId) {
        expected.add(orderId);
    }

    /**
     * Waits until each of {@code orderIds} was seen decided, or until {@code deadlineMs} (epoch ms).
     * @return when each seen one was first seen (epoch ms)
     */
    Map<String, Long> decided(Collection<String> orderIds, long deadlineMs) throws Exception {
        orderIds.forEach(this::expect);
        while (!seenAtMs.keySet().containsAll(orderIds) && System.currentTimeMillis() < deadlineMs) {
            if (failure != null) {
                throw failure;
            }
            Thread.sleep(POLL_MS);
        }
        return Map.copyOf(seenAtMs);
    }

    private void watch() {
        Set<String> pending = new HashSet<>();
        try {
            while (watching) {
                for (String id = expected.poll(); id != null; id = expected.poll()) {
                    if (!seenAtMs.containsKey(id)) {
                        pending.add(id);
                    }
                }
                if (!pending.isEmpty()) {
                    Set<String> seen = design.committed(pending).keySet();
                    long now = System.currentTimeMillis();
                    seen.forEach(id -> seenAtMs.putIfAbsent(id, now));
                    pending.removeAll(seen);
                }
                Thread.sleep(POLL_MS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failure = e;
        }
    }

    @Override
    public void close() {
        watching = false;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
