package io.seckill.ingress.warmup;

import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.ingress.buying.OrderPublisher;
import io.seckill.ingress.buying.OutboxWriter;
import io.seckill.ingress.http.RateLimits;
import io.seckill.ingress.http.TrustedProxies;
import io.seckill.ingress.identity.Auth;
import io.seckill.ingress.identity.BuyerIdentity;
import io.seckill.mysqlstate.Skus;
import io.seckill.redisstate.RateLimitCounters;
import io.seckill.redisstate.SaleStore;
import io.seckill.schemas.kafka.WarmUpHeaders;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;
import org.jooq.DSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the buy path before the ingress serves buyers, so a sale's first second is not spent compiling it: buy
 * requests over loopback HTTP to a desk built of the ingress's own parts (the same classes, so the JIT's work
 * carries over) but with the warm-up's credentials, uncounted metrics and its own sold-out memory, against a hidden
 * sale that cannot take an order ({@link WarmUpSale}); meanwhile the winner's outbox write runs in transactions
 * that are rolled back, and each order so rehearsed is sent down the pipeline marked as a warm-up's
 * ({@link WarmUpHeaders}), so that the broker, the stream-processor and the sink have run a winner's path too before
 * the first sale (a cold pipeline decides a sale's orders only once its burst is over). What it leaves: nothing in
 * MySQL or the service's metrics; on the order topic, the marked orders of the hidden sale, which every consumer drops;
 * in Redis, nothing once it ends (the hidden sale and the warm-up buyers' rate-limit counters are deleted).
 */
public final class BuyPathWarmUp {

    /**
     * The buy route, served on loopback by a desk of the ingress's parts with the given identity, passes and limits.
     */
    @FunctionalInterface
    public interface LoopbackBuyRoute {
        Served serve(BuyerIdentity identity, SalePasses passes, RateLimits rateLimits);
    }

    /** A loopback server taking the warm-up's requests until closed. */
    public interface Served extends AutoCloseable {
        int port();

        @Override
        void close();
    }

    /** @param answers how many requests got each HTTP status */
    public record Outcome(int requests, Map<Integer, Long> answers, List<Long> skus, Duration took) {
        static final Outcome NONE = new Outcome(0, Map.of(), List.of(), Duration.ZERO);
    }

    private static final Logger LOG = LoggerFactory.getLogger(BuyPathWarmUp.class);
    /** As a sale's many buyers, in few enough rate-limit counters to delete one by one. */
    private static final int BUYERS = 64;
    /** TEST-NET-1 (RFC 5737): an address no real client has, named in X-Forwarded-For by the loopback "proxy". */
    private static final List<String> ADDRESSES = IntStream.rangeClosed(1, 16).mapToObj(n -> "192.0.2." + n).toList();
    private static final int CLIENTS = 32;
    /**
     * A winner's write among this many buy requests: far more than a sale's share, few enough not to hold the warm-up
     * back.
     */
    private static final int REQUESTS_PER_REHEARSAL = 20;

    private static final String BODY = "{\"quantity\":1}";

    private final WarmUpSettings settings;
    private final Auth auth;
    private final RateLimits rateLimits;
    private final DSLContext dsl;
    private final SaleStore saleStore;
    private final RateLimitCounters counters;
    private final OutboxWriter outbox;
    private final OrderPublisher publisher;
    private final Clock clock;

    public BuyPathWarmUp(WarmUpSettings settings, Auth auth, RateLimits rateLimits, DSLContext dsl, SaleStore saleStore,
                         RateLimitCounters counters, OutboxWriter outbox, OrderPublisher publisher, Clock clock) {
        this.settings = settings;
        this.auth = auth;
        this.rateLimits = rateLimits;
        this.dsl = dsl;
        this.saleStore = saleStore;
        this.counters = counters;
        this.outbox = outbox;
        this.publisher = publisher;
        this.clock = clock;
    }

    /**
     * Warms the buy path; a warm-up that fails is logged and the ingress starts cold (its readiness checks say whether
     * it can serve).
     */
    public Outcome run(LoopbackBuyRoute route) {
        if (!settings.enabled()) {
            return Outcome.NONE;
        }
        long started = System.nanoTime();
        List<String> buyers = IntStream.range(0, BUYERS).mapToObj(n -> "seckill-warm-up-" + n).toList();
        try (WarmUpSale sale = WarmUpSale.open(dsl, new Skus(), saleStore, clock)) {
            Outcome outcome = drive(route, sale, buyers, started);
            LOG.info(
                    "buy path warmed before serving: {} request(s) in {} ms, answered {}",
                    outcome.requests(),
                    outcome.took().toMillis(),
                    outcome.answers());
            return outcome;
        } catch (RuntimeException | IOException e) {
            LOG.warn("the buy path's warm-up failed ({}); serving cold", e.toString());
            return Outcome.NONE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Outcome.NONE;
        } finally {
            forgetCounters(buyers);
        }
    }

    /**
     * The warm-up buyers' counters would expire within a window anyway: a Redis that cannot delete them stops no start.
     */
    private void forgetCounters(List<String> buyers) {
        try {
            counters.forget(RateLimitCounters.Scope.BUY, buyers, ADDRESSES);
        } catch (RuntimeException e) {
            LOG.warn(
                    "the warm-up's rate-limit counters were not deleted ({}); they expire within a window",
                    e.toString());
        }
    }

    private Outcome drive(LoopbackBuyRoute route, WarmUpSale sale, List<String> buyers, long started)
            throws IOException, InterruptedException {
        WarmUpCredentials credentials = new WarmUpCredentials(auth, clock);
        List<Request> requests = requests(credentials, sale, buyers);
        Map<Integer, LongAdder> answers = new ConcurrentHashMap<>();
        AtomicInteger sent = new AtomicInteger();
        List<Exception> failures = new CopyOnWriteArrayList<>();
        PipelineRehearsal pipeline = new PipelineRehearsal(publisher);
        long deadline = started + settings.timeout().toNanos();
        try (Served served = route.serve(credentials.identity(), credentials.passes(), loopbackLimits());
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            URI base = URI.create("http://127.0.0.1:" + served.port());
            List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                clients.add(Thread.ofVirtual().name("warm-up-client-" + c).start(() -> {
                    try {
                        for (int n = sent.getAndIncrement();
                                n < settings.requests() && System.nanoTime() < deadline;
                                n = sent.getAndIncrement()) {
                            if (n % REQUESTS_PER_REHEARSAL == 0) {
                                pipeline.send(outbox.rehearseWrite(sale.notStarted(), buyers.get(0)));
                            }
                            Request request = requests.get(n % requests.size());
                            int status = client.send(
                                            HttpRequest.newBuilder(base.resolve(request.path()))
                                                    .headers(request.headers().toArray(String[]::new))
                                                    .POST(HttpRequest.BodyPublishers.ofString(BODY))
                                                    .build(),
                                            HttpResponse.BodyHandlers.discarding())
                                    .statusCode();
                            answers.computeIfAbsent(status, any -> new LongAdder())
                                    .increment();
                        }
                    } catch (IOException | InterruptedException | RuntimeException e) {
                        failures.add(e);
                    }
                }));
            }
            for (Thread each : clients) {
                each.join();
            }
        }
        if (!failures.isEmpty()) {
            throw new IOException("a warm-up request failed", failures.get(0));
        }
        Map<Integer, Long> counted = new TreeMap<>();
        answers.forEach((status, count) -> counted.put(status, count.sum()));
        return new Outcome(
                counted.values().stream().mapToInt(Long::intValue).sum(),
                counted,
                sale.skus(),
                Duration.ofNanos(System.nanoTime() - started));
    }

    /**
     * A request's path and headers (name, value, name, value...), made once: minting and signing are not what is
     * warmed.
     */
    private record Request(String path, List<String> headers) {}

    /** Every buyer at both SKUs: a pass shown for the sold-out one (it wants one), none for the other. */
    private static List<Request> requests(WarmUpCredentials credentials, WarmUpSale sale, List<String> buyers) {
        List<Request> requests = new ArrayList<>();
        for (int b = 0; b < buyers.size(); b++) {
            String buyer = buyers.get(b);
            for (long sku : sale.skus()) {
                List<String> headers = new ArrayList<>(List.of(
                        "Content-Type", "application/json", "X-Forwarded-For", ADDRESSES.get(b % ADDRESSES.size())));
                credentials.buyer(buyer).forEach((name, value) -> headers.addAll(List.of(name, value)));
                if (sku == sale.soldOut()) {
                    headers.addAll(List.of(SalePasses.HEADER, credentials.pass(buyer, sku)));
                }
                requests.add(new Request("/api/v1/skus/" + sku + "/orders", List.copyOf(headers)));
            }
        }
        return requests;
    }

    /**
     * The configured limits' switches, at a height the warm-up never reaches (a refusal would skip the reserve), with
     * the loopback client trusted to name the warm-up's own addresses.
     */
    private RateLimits loopbackLimits() {
        return new RateLimits(
                unreachable(rateLimits.buy()),
                rateLimits.orders(),
                rateLimits.pass(),
                rateLimits.queue(),
                rateLimits.window(),
                TrustedProxies.parse("127.0.0.1,::1"),
                rateLimits.refusedTokensPerAddress());
    }

    private static RateLimits.Limit unreachable(RateLimits.Limit limit) {
        return new RateLimits.Limit(
                limit.perUser() > 0 ? Integer.MAX_VALUE : 0, limit.perAddress() > 0 ? Integer.MAX_VALUE : 0);
    }
}
