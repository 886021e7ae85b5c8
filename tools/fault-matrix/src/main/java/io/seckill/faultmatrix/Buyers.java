package io.seckill.faultmatrix;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.seckill.buyeraccess.tokens.TokenMinter;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Buyers as the fault runs send them: each buying 1 to {@code maxQuantity} units of one SKU through
 * one of the ingresses in turn, {@code concurrency} at a time, as fast as they are answered. Every
 * answer is kept: the status (or none, when the connection dropped) and the order id of a 202. The
 * fault matrix's buyers are each a user of their own and ask once; the randomized run's share users
 * (so the per-user limit is tested) and ask as a careful client does: with an Idempotency-Key, again
 * while an answer says nothing yet (a 503, a dropped connection, the key's first request still running),
 * the last answer being the one that counts.
 */
final class Buyers {

    /**
     * What one buyer was told; {@code status} is {@link #NO_ANSWER} when the connection dropped without one and
     * {@link #TIMED_OUT} when none came within the request's bound.
     * @param idempotencyKey the key its requests carried, or null
     * @param code the problem's code of an error answer, else null
     */
    record Answer(
            String userId, long skuId, int quantity, String idempotencyKey, int status, String orderId, String code) {
        static final int NO_ANSWER = -1;
        static final int TIMED_OUT = -2;
        static final String IN_PROGRESS = "IDEMPOTENCY_IN_PROGRESS";
        /** The codes of a 503 docs/api.md gives the buy route: a dependency down, or Redis being rebuilt. */
        static final Set<String> UNAVAILABLE = Set.of(
                "SERVICE_UNAVAILABLE", "SALE_RESTORING", "REDIS_UNAVAILABLE", "DATABASE_UNAVAILABLE");

        /**
         * Whether it says what became of the request: an acceptance or a refusal. A 503, no answer, and "the first
         * request with this key is still running" say nothing yet: a retry with the key learns the truth (P7).
         */
        boolean definitive() {
            return status > 0 && status < 500 && !IN_PROGRESS.equals(code);
        }

        boolean accepted() {
            return status == 202;
        }

        /**
         * An answer a buyer of a sale without limits or passes may get: accepted, refused for the sale's reasons (409),
         * asked to retry (a documented 503), or a connection dropped (its ingress killed). A 500, any other status, an
         * undocumented 503 and a request left hanging past its bound are not.
         */
        boolean allowed() {
            return status == 202
                    || status == 409
                    || (status == 503 && UNAVAILABLE.contains(code))
                    || status == NO_ANSWER;
        }

        /** Told it failed: an HTTP answer that is not a 202. */
        boolean refused() {
            return status > 0 && status != 202;
        }

        String describe() {
            String told = switch (status) {
                case NO_ANSWER -> "no answer (connection dropped)";
                case TIMED_OUT -> "no answer within " + REQUEST_TIMEOUT.toSeconds() + " s";
                default -> status + (code == null ? "" : " " + code);
            };
            return "buyer " + userId + (idempotencyKey == null ? "" : " (key " + idempotencyKey + ")") + ": " + told;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private static final Duration RETRY_PAUSE = Duration.ofMillis(250);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final TokenMinter tokens = TokenMinter.development(FaultCluster.TOKEN_SECRET);
    private final AtomicInteger answered = new AtomicInteger();
    private final Queue<Answer> unexpected = new ConcurrentLinkedQueue<>();
    private final int attempts;
    private final int buyersPerUser;
    private final int maxQuantity;
    private final Duration spread;

    /** The fault matrix's buyers: a user each, 1-3 units, one request without a key, all at once. */
    Buyers() {
        this(1, 1, 3, Duration.ZERO);
    }

    /**
     * @param attempts requests per buyer at most; above 1 they carry an Idempotency-Key and are repeated on a 503 or no
     * answer
     * @param buyersPerUser how many buyers act for one user (each with requests of its own)
     * @param spread the time over which the buyers arrive, evenly, so that the sale lasts that long
     */
    Buyers(int attempts, int buyersPerUser, int maxQuantity, Duration spread) {
        this.attempts = attempts;
        this.buyersPerUser = buyersPerUser;
        this.maxQuantity = maxQuantity;
        this.spread = spread;
    }

    /**
     * The index in the ingresses a buyer of the fault matrix (a user each) was sent through, read from its user id: the
     * n-th buyer is user {@code prefix-n} and goes through ingress {@code n mod ingresses}.
     */
    static int ingressOf(String userId, int ingresses) {
        return Integer.parseInt(userId.substring(userId.lastIndexOf('-') + 1)) % ingresses;
    }

    int answered() {
        return answered.get();
    }

    /** Every answer of every attempt, a retry's included, that no buyer should get ({@link Answer#allowed}). */
    List<Answer> unexpected() {
        return List.copyOf(unexpected);
    }

    /** Starts {@code buyers} buyers of {@code skus}; the future completes with every answer. */
    CompletableFuture<List<Answer>> start(
            String prefix, List<URI> ingresses, List<Long> skus, int buyers, int concurrency) {
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        Random random = new Random(prefix.hashCode());
        List<CompletableFuture<Answer>> answers = new ArrayList<>();
        long start = System.nanoTime();
        for (int buyer = 0; buyer < buyers; buyer++) {
            long arrival = start + spread.toNanos() * buyer / buyers;
            String userId = prefix + "-" + buyer / buyersPerUser;
            String key = attempts > 1 ? prefix + "-key-" + buyer : null;
            long sku = skus.get(random.nextInt(skus.size()));
            int quantity = 1 + random.nextInt(maxQuantity);
            URI ingress = ingresses.get(buyer % ingresses.size());
            answers.add(CompletableFuture.supplyAsync(
                    () -> buyUntilAnswered(arrival, ingress, userId, sku, quantity, key), pool));
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new))
                .thenApply(done -> answers.stream().map(CompletableFuture::join).toList())
                .whenComplete((done, failure) -> pool.shutdown());
    }

    private Answer buyUntilAnswered(long arrival, URI ingress, String userId, long sku, int quantity, String key) {
        try {
            long early = arrival - System.nanoTime();
            if (early > 0) {
                Thread.sleep(early / 1_000_000);
            }
            Answer answer = buy(ingress, userId, sku, quantity, key);
            for (int attempt = 2; attempt <= attempts && !answer.definitive(); attempt++) {
                Thread.sleep(RETRY_PAUSE.toMillis());
                answer = buy(ingress, userId, sku, quantity, key);
            }
            return answer;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(userId, sku, quantity, key, Answer.NO_ANSWER, null, null);
        } finally {
            answered.incrementAndGet();
        }
    }

    private Answer buy(URI ingress, String userId, long sku, int quantity, String key) throws InterruptedException {
        Answer answer = ask(ingress, userId, sku, quantity, key);
        if (!answer.allowed()) {
            unexpected.add(answer);
        }
        return answer;
    }

    private Answer ask(URI ingress, String userId, long sku, int quantity, String key) throws InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(ingress.resolve("/api/v1/skus/" + sku + "/orders"))
                .timeout(REQUEST_TIMEOUT)
                .header("Authorization", "Bearer " + tokens.buyer(userId, Duration.ofHours(1)))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":" + quantity + "}"));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = json(response.body());
            return response.statusCode() == 202
                    ? new Answer(
                            userId,
                            sku,
                            quantity,
                            key,
                            202,
                            body.path("orderId").asText(),
                            null)
                    : new Answer(
                            userId,
                            sku,
                            quantity,
                            key,
                            response.statusCode(),
                            null,
                            body.path("code").asText(null));
        } catch (HttpTimeoutException e) {
            return new Answer(userId, sku, quantity, key, Answer.TIMED_OUT, null, null);
        } catch (IOException e) {
            return new Answer(userId, sku, quantity, key, Answer.NO_ANSWER, null, null);
        }
    }

    /** The body as JSON, or nothing when it is none (an answer no buyer should get is still counted by its status). */
    private static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException notJson) {
            return MissingNode.getInstance();
        }
    }

    /**
     * Asks again, with the same key, every keyed request whose last answer said nothing yet, until one does (within
     * {@code patience}): what a careful client does once the system is back, and what P7 promises it learns.
     * @return the answers, each keyed one replaced by what its retry learned
     */
    List<Answer> learnTheTruth(URI ingress, List<Answer> answers, Duration patience) throws InterruptedException {
        List<Answer> learned = new ArrayList<>();
        long deadline = System.nanoTime() + patience.toNanos();
        for (Answer answer : answers) {
            Answer latest = answer;
            while (latest.idempotencyKey() != null && !latest.definitive() && System.nanoTime() < deadline) {
                latest = buy(ingress, answer.userId(), answer.skuId(), answer.quantity(), answer.idempotencyKey());
                if (!latest.definitive()) {
                    Thread.sleep(RETRY_PAUSE.toMillis());
                }
            }
            learned.add(latest);
        }
        return learned;
    }

    /** The status of a buyer's order as the ingress tells it. */
    String status(URI ingress, String userId, String orderId) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(ingress.resolve("/api/v1/orders/" + orderId))
                .header("Authorization", "Bearer " + tokens.buyer(userId, Duration.ofHours(1))).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        JsonNode body = JSON.readTree(response.body());
        return body.path("status").asText("HTTP " + response.statusCode());
    }
}
