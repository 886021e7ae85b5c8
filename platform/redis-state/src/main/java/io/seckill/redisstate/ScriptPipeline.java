package io.seckill.redisstate;

import io.seckill.runtime.BatchQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Collectors;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Connection;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * Sends the script calls that many threads make at the same moment as one pipeline: one write, one
 * read and one pass of Redis's event loop for the lot, instead of a round trip each. Under a storm
 * the per-call cost in Redis and in the loopback network stack is what limits the ingress. A caller
 * still waits for its own reply, so each call keeps its meaning, and a caller's next call is sent
 * only after its previous one has been answered. A lone call goes out at once (a batch is whatever
 * has queued up).
 */
final class ScriptPipeline implements AutoCloseable {

    private static final int MAX_BATCH = 256;
    /** Beyond the client's own socket timeout, so a slow batch fails by that, not by this. */
    private static final Duration WAIT_LIMIT = Duration.ofSeconds(30);
    private static final String WHAT = "redis-pipeline";

    private final BatchQueue<Call> senders;

    ScriptPipeline(UnifiedJedis redis, int senderThreads) {
        this.senders = new BatchQueue<>(WHAT, senderThreads, MAX_BATCH, batch -> sendBatch(redis, batch),
                JedisConnectionException::new);
    }

    /** Runs the calls (by SHA, from source when the server does not know it) and returns their replies in order. */
    List<Object> runAll(List<Call> calls) {
        senders.submit(calls);
        return replies(calls);
    }

    /** Sends the calls as one pipeline from the calling thread and returns their replies in order. */
    static List<Object> runNow(UnifiedJedis redis, List<Call> calls) {
        sendBatch(redis, calls);
        return replies(calls);
    }

    private static List<Object> replies(List<Call> calls) {
        List<Object> replies = new ArrayList<>(calls.size());
        for (Call call : calls) {
            replies.add(BatchQueue.await(call.result(), WAIT_LIMIT, WHAT, JedisConnectionException::new));
        }
        return replies;
    }

    private static void sendBatch(UnifiedJedis redis, List<Call> batch) {
        if (redis instanceof RedisClusterClient cluster) {
            Map<Connection, List<Call>> byPrimary = byPrimary(cluster, batch);
            if (byPrimary.size() == 1) {
                byPrimary.forEach((connection, calls) -> sendToPrimary(redis, connection, calls));
                return;
            }
            // Each primary's pipeline on a thread of its own: a batch waits for its slowest primary, not for their sum
            // (a request's buyer and address counters live on two).
            try (ExecutorService primaries = Executors.newVirtualThreadPerTaskExecutor()) {
                byPrimary.forEach(
                        (connection, calls) -> primaries.execute(() -> sendToPrimary(redis, connection, calls)));
            }
        } else {
            sendBatch(redis, redis.pipelined(), batch);
        }
    }

    private static void sendToPrimary(UnifiedJedis redis, Connection connection, List<Call> calls) {
        try (connection) {
            sendBatch(redis, new Pipeline(connection), calls);
        }
    }

    /**
     * On a cluster, one pipeline per primary, each on a connection of its own: a primary that fails (down, failing
     * over) fails only the calls sent to it, and every other call keeps its reply. A call that cannot get a connection
     * fails alone.
     */
    private static Map<Connection, List<Call>> byPrimary(RedisClusterClient cluster, List<Call> batch) {
        // A connection asked for once per slot (a hot SKU's calls share one), then one kept per primary.
        Map<Integer, List<Call>> bySlot = batch.stream()
                .collect(Collectors.groupingBy(
                        call -> JedisClusterCRC16.getSlot(call.keys().get(0)),
                        LinkedHashMap::new,
                        Collectors.toList()));
        Map<HostAndPort, Connection> connections = new HashMap<>();
        Map<Connection, List<Call>> calls = new LinkedHashMap<>();
        bySlot.forEach((slot, slotCalls) -> {
            Connection connection;
            try {
                connection = cluster.getConnectionFromSlot(slot);
            } catch (RuntimeException failure) {
                slotCalls.forEach(call -> call.result().completeExceptionally(failure));
                return;
            }
            Connection kept = connections.putIfAbsent(connection.getHostAndPort(), connection);
            if (kept != null) {
                connection.close();
                connection = kept;
            }
            calls.computeIfAbsent(connection, _ -> new ArrayList<>()).addAll(slotCalls);
        });
        return calls;
    }

    private static void sendBatch(UnifiedJedis redis, AbstractPipeline opened, List<Call> batch) {
        List<Response<Object>> replies = new ArrayList<>(batch.size());
        try (AbstractPipeline pipeline = opened) {
            for (Call call : batch) {
                replies.add(pipeline.evalsha(call.sha(), call.keys(), call.args()));
            }
            pipeline.sync();
        } catch (RuntimeException failure) {
            batch.forEach(call -> call.result().completeExceptionally(failure));
            return;
        }
        for (int i = 0; i < batch.size(); i++) {
            Call call = batch.get(i);
            try {
                call.result().complete(replies.get(i).get());
            } catch (JedisDataException e) {
                if (isNoScript(e) || isRedirect(e)) {
                    // Run alone through the client: the source for a server that lost its script cache, the client's
                    // own routing for a slot that moved (the script did not run where it was sent).
                    runFromSource(redis, call);
                } else {
                    call.result().completeExceptionally(e);
                }
            } catch (RuntimeException e) {
                call.result().completeExceptionally(e);
            }
        }
    }

    /** Sent alone: a server that lost its script cache (restart, SCRIPT FLUSH) gets the source once. */
    private static void runFromSource(UnifiedJedis redis, Call call) {
        try {
            call.result().complete(loadAndRun(redis, call.sha(), call.source(), call.keys(), call.args()));
        } catch (RuntimeException e) {
            call.result().completeExceptionally(e);
        }
    }

    /**
     * Loads the script into the server that holds its first key, then runs it by its digest: the services' Redis users
     * may run scripts by digest only ({@code EVALSHA}), never a source of their own ({@code EVAL}).
     */
    static Object loadAndRun(UnifiedJedis redis, String sha, String source, List<String> keys, List<String> args) {
        String loaded = keys.isEmpty() ? redis.scriptLoad(source) : redis.scriptLoad(source, keys.get(0));
        if (!loaded.equals(sha)) {
            throw new IllegalStateException("Redis digested a script as " + loaded + ", not " + sha);
        }
        return redis.evalsha(sha, keys, args);
    }

    private static boolean isNoScript(JedisDataException e) {
        return e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT");
    }

    private static boolean isRedirect(JedisDataException e) {
        return e.getMessage() != null && (e.getMessage().startsWith("MOVED") || e.getMessage().startsWith("ASK"));
    }

    @Override
    public void close() {
        senders.close();
    }

    record Call(String sha, String source, List<String> keys, List<String> args, CompletableFuture<Object> result)
            implements BatchQueue.Job {
        Call(String sha, String source, List<String> keys, List<String> args) {
            this(sha, source, keys, args, new CompletableFuture<>());
        }
    }
}
