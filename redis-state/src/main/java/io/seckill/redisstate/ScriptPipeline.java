package io.seckill.redisstate;

import io.seckill.runtime.BatchQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import redis.clients.jedis.AbstractPipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

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
        List<Response<Object>> replies = new ArrayList<>(batch.size());
        try (AbstractPipeline pipeline = redis.pipelined()) {
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
                if (isNoScript(e)) {
                    runFromSource(redis, call);
                } else {
                    call.result().completeExceptionally(e);
                }
            } catch (RuntimeException e) {
                call.result().completeExceptionally(e);
            }
        }
    }

    /** A server that lost its script cache (restart, SCRIPT FLUSH) is sent the source once. */
    private static void runFromSource(UnifiedJedis redis, Call call) {
        try {
            call.result().complete(redis.eval(call.source(), call.keys(), call.args()));
        } catch (RuntimeException e) {
            call.result().completeExceptionally(e);
        }
    }

    private static boolean isNoScript(JedisDataException e) {
        return e.getMessage() != null && e.getMessage().startsWith("NOSCRIPT");
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
