package io.seckill.faultmatrix;

import io.seckill.redisstate.LuaRunner;
import io.seckill.redisstate.RedisEpoch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The randomized run's adversary: for each sale it draws a schedule of one to three faults from the
 * run's seeded random (what, on which service, when while the buyers arrive, for how long), then
 * causes them for real on the {@link FaultCluster} and undoes each after its time. Faults of a sale
 * never share a target (a service, or a server), so each is undone as it was done.
 */
final class Nemesis {

    /** How likely each action is drawn, against the others. */
    private static final List<NemesisAction> DRAWS = List.of(
            NemesisAction.PAUSE_SERVICE,
            NemesisAction.PAUSE_SERVICE,
            NemesisAction.PAUSE_SERVICE,
            NemesisAction.PAUSE_SERVICE,
            NemesisAction.KILL_SERVICE,
            NemesisAction.KILL_SERVICE,
            NemesisAction.KILL_SERVICE,
            NemesisAction.PAUSE_KAFKA,
            NemesisAction.PAUSE_KAFKA,
            NemesisAction.PAUSE_MYSQL,
            NemesisAction.PAUSE_MYSQL,
            NemesisAction.PAUSE_REDIS,
            NemesisAction.PAUSE_REDIS,
            NemesisAction.REQUEST_REBUILD,
            NemesisAction.REQUEST_REBUILD,
            NemesisAction.KILL_MYSQL,
            NemesisAction.FLUSH_REDIS,
            NemesisAction.KILL_SERVERS);

    private static final int MAX_FAULTS = 3;
    private static final int LATEST_START_MS = 2_500;
    /**
     * As often as the short settings' reconciler looks ({@link RandomFaultRun#SHORT_REPAIRS}): a rebuild after each.
     */
    private static final long REBUILD_REQUEST_EVERY_MS = 250;

    private final FaultCluster cluster;
    private final Map<NemesisAction, Integer> struck = new ConcurrentHashMap<>();

    Nemesis(FaultCluster cluster) {
        this.cluster = cluster;
    }

    /**
     * A sale's schedule, drawn from {@code random} alone: the same seed gives the same schedules.
     * @param serverKills whether KILL_SERVERS may be drawn
     */
    static List<ScheduledFault> plan(Random random, boolean serverKills) {
        List<ScheduledFault> schedule = new ArrayList<>();
        Set<String> taken = new HashSet<>();
        int faults = 1 + random.nextInt(MAX_FAULTS);
        // Draws that clash with an earlier one are dropped; a sale always gets at least one fault.
        for (int i = 0; i < faults || schedule.isEmpty(); i++) {
            NemesisAction action = DRAWS.get(random.nextInt(DRAWS.size()));
            List<String> targets = action.targets();
            String target = targets.isEmpty() ? null : targets.get(random.nextInt(targets.size()));
            long at = random.nextInt(LATEST_START_MS);
            long length = length(action, random);
            if ((action == NemesisAction.KILL_SERVERS && !serverKills)
                    || !taken.add(resource(action, target))
                    || (action.alone() && !schedule.isEmpty())
                    || schedule.stream().anyMatch(fault -> fault.action().alone())) {
                continue;
            }
            schedule.add(new ScheduledFault(action, target, at, length));
        }
        return schedule;
    }

    /** What a fault holds: a service, or a server (a rebuild request and a flush both act on Redis's state). */
    private static String resource(NemesisAction action, String target) {
        return switch (action) {
            case PAUSE_SERVICE, KILL_SERVICE -> target;
            case PAUSE_KAFKA -> "kafka";
            case PAUSE_MYSQL, KILL_MYSQL -> "mysql";
            case PAUSE_REDIS, FLUSH_REDIS, REQUEST_REBUILD -> "redis";
            case KILL_SERVERS -> "servers";
        };
    }

    private static long length(NemesisAction action, Random random) {
        return switch (action) {
            case PAUSE_SERVICE -> 300 + random.nextInt(6_700);
            case PAUSE_MYSQL -> 300 + random.nextInt(3_700);
            case KILL_SERVICE -> random.nextInt(3_000);
            case PAUSE_KAFKA -> 500 + random.nextInt(4_500);
            case PAUSE_REDIS -> 300 + random.nextInt(2_700);
            case REQUEST_REBUILD -> 500 + random.nextInt(3_500);
            case KILL_MYSQL, FLUSH_REDIS, KILL_SERVERS -> 0;
        };
    }

    /**
     * Causes the schedule's faults, each at its moment from now, each on a thread of its own.
     * @return completes once every fault is undone (and the system is whole again), exceptionally when one could not be
     */
    CompletableFuture<Void> unleash(List<ScheduledFault> schedule) {
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, schedule.size()), task -> {
            Thread thread = new Thread(task, "nemesis");
            thread.setDaemon(true);
            return thread;
        });
        long start = System.nanoTime();
        List<CompletableFuture<Void>> faults = schedule.stream().map(fault -> CompletableFuture.runAsync(() -> {
            try {
                long wait = fault.atMillis() - (System.nanoTime() - start) / 1_000_000;
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                cause(fault);
                struck.merge(fault.action(), 1, Integer::sum);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during " + fault.describe(), e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, threads)).toList();
        return CompletableFuture.allOf(faults.toArray(CompletableFuture[]::new))
                .whenComplete((done, failure) -> threads.shutdown());
    }

    /** How many faults of each kind were caused and undone so far. */
    Map<NemesisAction, Integer> struck() {
        Map<NemesisAction, Integer> byKind = new EnumMap<>(NemesisAction.class);
        byKind.putAll(struck);
        return byKind;
    }

    private void cause(ScheduledFault fault) throws IOException, InterruptedException {
        Duration length = Duration.ofMillis(fault.forMillis());
        switch (fault.action()) {
            case PAUSE_SERVICE -> cluster.pauseFor(fault.target(), length);
            case KILL_SERVICE -> cluster.killFor(fault.target(), length);
            case PAUSE_KAFKA -> cluster.pauseKafkaFor(length);
            case PAUSE_MYSQL -> cluster.pauseMysqlFor(length);
            case PAUSE_REDIS -> cluster.pauseRedisFor(length);
            case KILL_MYSQL -> cluster.killMysqlAndAwaitItsRestart();
            case REQUEST_REBUILD -> {
                RedisEpoch epoch = new RedisEpoch(new LuaRunner(cluster.redis()));
                long until = System.nanoTime() + fault.forMillis() * 1_000_000;
                do {
                    epoch.requestRebuild();
                    Thread.sleep(REBUILD_REQUEST_EVERY_MS);
                } while (System.nanoTime() < until);
            }
            case FLUSH_REDIS -> cluster.redis().flushAll();
            case KILL_SERVERS -> {
                cluster.killServersAndStartAgain(false);
                cluster.awaitAllReady();
            }
        }
    }
}
