package io.seckill.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariDataSource;
import io.seckill.buyeraccess.passes.QueueTickets;
import io.seckill.buyeraccess.passes.SalePasses;
import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.processdriver.DevelopmentServers;
import io.seckill.processdriver.SalePassClient;
import io.seckill.redisstate.RedisConnections;
import io.seckill.redisstate.RedisPrimaries;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import redis.clients.jedis.UnifiedJedis;

/**
 * A sale behind a waiting room, as its buyers meet it: {@code --early} buyers join over {@code --early-window} before
 * the start, {@code --late} more in its first {@code --late-window}; each asks where it stands as the answers' {@code
 * Retry-After} says, and once admitted gets its pass and buys one unit. Prints, per round and as medians: whether
 * arriving first in the pre-queue bought an advantage (the first-arrived half's share of the pre-queue's winners
 * against a binomial 99% interval around one half), the admission's rate against the set one, the buy requests against
 * the admitted buyers, Redis calls per position poll ({@code INFO commandstats} over a window in which buyers only
 * poll), and the sale's promises (nothing oversold, one unit per buyer, every order decided, no drift).
 */
@Command(
        name = "waiting-room",
        mixinStandardHelpOptions = true,
        description = "A sale behind a waiting room: fairness, admission rate, buy requests and Redis calls per poll.")
public final class WaitingRoomBenchmark implements Callable<Integer> {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The 99% two-sided normal quantile. */
    private static final double Z99 = 2.576;
    private static final Duration DECIDED_WITHIN = Duration.ofSeconds(60);
    private static final int SEND_ATTEMPTS = 3;
    /** A request unanswered this long is sent again: a connection the server dropped never answers. */
    private static final Duration ANSWERED_WITHIN = Duration.ofSeconds(10);

    @Option(names = "--units", defaultValue = "200", description = "units of each sale (default ${DEFAULT-VALUE})")
    int units;

    @Option(names = "--early", defaultValue = "1000", description = "buyers joining before the start")
    int early;

    @Option(names = "--late", defaultValue = "9000", description = "buyers joining after the start")
    int late;

    @Option(names = "--rate", defaultValue = "500", description = "the room's admissions a second")
    int rate;

    @Option(names = "--early-window", defaultValue = "PT20S", description = "before the start the early buyers join in")
    Duration earlyWindow;

    @Option(names = "--late-window", defaultValue = "PT5S", description = "after the start the late buyers join in")
    Duration lateWindow;

    @Option(
            names = "--rounds",
            defaultValue = "3",
            description = "rounds, a fresh sale each (default ${DEFAULT-VALUE})")
    int rounds;

    @Mixin
    ServersOptions serversOptions;

    /**
     * What one buyer did: when it joined, whether before the start, when it saw itself admitted, its buy's status (0:
     * none), its polls, and where it last stood ({@code ADMITTED} or {@code SOLD_OUT}, else an unexpected answer).
     */
    record Buyer(
            String id, boolean early, long joinedAtMs, long admittedAtMs, int buyStatus, int polls, String standing) {

        /** Whether every answer it got is one a buyer of the sale may get. */
        boolean answeredAsExpected() {
            return (standing.equals("ADMITTED") || standing.equals("SOLD_OUT"))
                    && (buyStatus == 0 || buyStatus == 202 || buyStatus == 409);
        }
    }

    /** The position polls made over a window in which buyers only polled, and the Redis calls made meanwhile. */
    record PollingWindow(long polls, long redisCalls) {

        double callsPerPoll() {
            return polls == 0 ? 0 : (double) redisCalls / polls;
        }
    }

    /** One round's figures. */
    record Round(
            double firstHalfShare,
            double interval,
            long preQueueWinners,
            double admittedPerSecond,
            long admitted,
            long buyRequests,
            long polls,
            double redisCallsPerPoll,
            long unexpectedAnswers,
            long sold,
            long oversold,
            long overLimit,
            long undecided,
            long drift) {

        boolean fair() {
            return Math.abs(firstHalfShare - 0.5) <= interval;
        }

        boolean promisesHeld() {
            return unexpectedAnswers == 0 && oversold == 0 && overLimit == 0 && undecided == 0 && drift == 0;
        }
    }

    @Override
    public Integer call() throws Exception {
        Map<String, String> settings = Map.of(
                "SECKILL_QUEUE_OPENS_MS", Long.toString(earlyWindow.plusMinutes(1).toMillis()),
                // Here one process solves every admitted buyer's puzzle, where buyers each solve one on their machine.
                "SECKILL_PASS_DIFFICULTY", "8");
        List<Round> recorded = new ArrayList<>();
        try (DevelopmentServers servers = serversOptions.start("waiting-room");
                HikariDataSource database = ServersOptions.databasePool(servers);
                UnifiedJedis redis = RedisConnections.open(
                        InfraAddresses.ofMigrationAccount(new Env(servers.settings())).redis(), 2);
                SeckillSaleDesign seckill = SeckillSaleDesign.start(
                        servers,
                        new SaleQueries(database),
                        ServersOptions.freePort(),
                        SeckillSaleDesign.Topology.ALL,
                        module -> "-Xmx1g",
                        settings)) {
            List<RedisPrimaries.Primary> primaries = RedisPrimaries.of(redis);
            System.out.printf(
                    Locale.ROOT,
                    "%,d units; %,d buyers join over %ds before the start, %,d in its first %ds; %,d admitted a"
                            + " second%n",
                    units,
                    early,
                    earlyWindow.toSeconds(),
                    late,
                    lateWindow.toSeconds(),
                    rate);
            for (int round = 1; round <= rounds; round++) {
                Round result = round(
                        seckill, primaries, ThreadLocalRandom.current().nextLong(1L << 40, 1L << 41));
                recorded.add(result);
                System.out.println("round " + round + ": " + line(result));
            }
        }
        System.out.println();
        System.out.println(table(recorded));
        return recorded.stream().allMatch(round -> round.fair() && round.promisesHeld()) ? 0 : 1;
    }

    private Round round(SeckillSaleDesign seckill, List<RedisPrimaries.Primary> primaries, long sku)
            throws Exception {
        Instant startsAt = Instant.now().plus(earlyWindow).plusSeconds(2);
        seckill.defineSaleWithRoom(sku, units, startsAt, rate);
        URI buyers = URI.create("http://localhost:" + seckill.port());
        long buyRequestsBefore = buyAnswers(seckill);
        AtomicLong polls = new AtomicLong();
        List<Future<Buyer>> running = new ArrayList<>();
        try (ExecutorService each = Executors.newVirtualThreadPerTaskExecutor()) {
            long startMs = startsAt.toEpochMilli();
            long earlyFrom = startMs - earlyWindow.toMillis();
            for (int i = 0; i < early; i++) {
                long at = earlyFrom + ThreadLocalRandom.current().nextLong(earlyWindow.toMillis() - 1_000);
                String id = "early-" + sku + "-" + i;
                running.add(each.submit(() -> buyer(buyers, sku, id, true, at, polls)));
            }
            // Every early buyer has joined a second before the start: from then until the start buyers only poll.
            sleepUntil(startMs - 900);
            long redisBefore = redisCalls(primaries);
            long pollsBefore = polls.get();
            sleepUntil(startMs - 100);
            PollingWindow pollingWindow =
                    new PollingWindow(polls.get() - pollsBefore, redisCalls(primaries) - redisBefore);
            for (int i = 0; i < late; i++) {
                long at = startMs + ThreadLocalRandom.current().nextLong(lateWindow.toMillis());
                String id = "late-" + sku + "-" + i;
                running.add(each.submit(() -> buyer(buyers, sku, id, false, at, polls)));
            }
            List<Buyer> done = new ArrayList<>();
            for (Future<Buyer> buyer : running) {
                done.add(buyer.get());
            }
            return figures(seckill, sku, done, admittedPerSecond(done, startMs),
                    buyAnswers(seckill) - buyRequestsBefore, polls.get(), pollingWindow);
        }
    }

    /** One buyer: joins at {@code atMs}, asks where it stands until admitted or sold out, then buys once. */
    private static Buyer buyer(URI buyers, long sku, String id, boolean early, long atMs, AtomicLong polls)
            throws Exception {
        sleepUntil(atMs);
        Map<String, String> identity = Map.of("X-Gateway-Secret", WholeSaleLoad.GATEWAY_SECRET, "X-User-Id", id);
        HttpResponse<String> joined = send(buyers.resolve("/api/v1/skus/" + sku + "/queue"), identity, null, "POST");
        JsonNode standing = JSON.readTree(joined.body());
        String ticket = standing.path("ticket").asText();
        int polled = 0;
        HttpResponse<String> last = joined;
        while ("WAITING".equals(standing.path("status").asText())) {
            Thread.sleep(Duration.ofSeconds(Long.parseLong(last.headers().firstValue("Retry-After").orElse("1"))));
            last = send(buyers.resolve("/api/v1/skus/" + sku + "/queue/me"), identity, ticket, "GET");
            polls.incrementAndGet();
            polled++;
            standing = JSON.readTree(last.body());
        }
        String stood = standing.path("status").asText("HTTP " + last.statusCode());
        if (!"ADMITTED".equals(stood)) {
            return new Buyer(id, early, atMs, -1, 0, polled, stood);
        }
        long admittedAt = System.currentTimeMillis();
        Map<String, String> withTicket = new HashMap<>(identity);
        withTicket.put(QueueTickets.HEADER, ticket);
        String pass;
        try {
            pass = new SalePassClient(HTTP, buyers).passFor(sku, withTicket);
        } catch (IllegalStateException soldOutMeanwhile) {
            return new Buyer(id, early, atMs, admittedAt, 0, polled, stood);
        }
        HttpRequest.Builder buy = HttpRequest.newBuilder(buyers.resolve("/api/v1/skus/" + sku + "/orders"))
                .timeout(ANSWERED_WITHIN)
                .header("Content-Type", "application/json")
                .header(SalePasses.HEADER, pass)
                // Sent again after a lost reply: the key makes it the same order.
                .header("Idempotency-Key", UUID.randomUUID().toString())
                .POST(HttpRequest.BodyPublishers.ofString("{\"quantity\":1}"));
        identity.forEach(buy::header);
        int status = sendAgainIfLost(buy.build()).statusCode();
        return new Buyer(id, early, atMs, admittedAt, status, polled, stood);
    }

    private static HttpResponse<String> send(URI uri, Map<String, String> identity, String ticket, String method)
            throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri)
                .timeout(ANSWERED_WITHIN)
                .method(method, HttpRequest.BodyPublishers.noBody());
        identity.forEach(request::header);
        if (ticket != null) {
            request.header(QueueTickets.HEADER, ticket);
        }
        return sendAgainIfLost(request.build());
    }

    /**
     * The JDK's HTTP/1.1 client can lose a reply on a reused keep-alive connection when the server answers fast
     * (JDK-8357639, as {@link SalePassClient} meets it), or wait on one the server dropped: each request here may be
     * sent again (joining, asking where one stands, a keyed buy), so one lost reply does not end a buyer.
     */
    private static HttpResponse<String> sendAgainIfLost(HttpRequest request) throws Exception {
        for (int attempt = 1; ; attempt++) {
            try {
                return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            } catch (IOException lost) {
                if (attempt == SEND_ATTEMPTS) {
                    throw lost;
                }
            }
        }
    }

    private Round figures(
            SeckillSaleDesign seckill,
            long sku,
            List<Buyer> buyers,
            double admittedPerSecond,
            long buyRequests,
            long polls,
            PollingWindow pollingWindow)
            throws Exception {
        List<Buyer> accepted = buyers.stream().filter(buyer -> buyer.buyStatus() == 202).toList();
        Map<String, Long> units = awaitDecided(seckill, sku, accepted.size());
        long sold = units.values().stream().mapToLong(Long::longValue).sum();
        long overLimit = units.values().stream().filter(held -> held > 1).count();
        List<Buyer> preQueue = buyers.stream()
                .filter(Buyer::early)
                .sorted(Comparator.comparingLong(Buyer::joinedAtMs))
                .toList();
        List<String> firstHalf = preQueue.subList(0, preQueue.size() / 2).stream().map(Buyer::id).toList();
        long preQueueWinners = preQueue.stream().filter(buyer -> units.containsKey(sku + ":" + buyer.id())).count();
        long firstHalfWinners = firstHalf.stream().filter(id -> units.containsKey(sku + ":" + id)).count();
        double share = preQueueWinners == 0 ? 0 : (double) firstHalfWinners / preQueueWinners;
        double interval = Z99 * Math.sqrt(0.25 / Math.max(1, preQueueWinners));
        long admitted = buyers.stream().filter(buyer -> buyer.admittedAtMs() >= 0).count();
        long undecided = accepted.size() - sold - rejected(seckill, sku);
        return new Round(
                share,
                interval,
                preQueueWinners,
                admittedPerSecond,
                admitted,
                buyRequests,
                polls,
                pollingWindow.callsPerPoll(),
                buyers.stream().filter(buyer -> !buyer.answeredAsExpected()).count(),
                sold,
                Math.max(0, sold - this.units),
                overLimit,
                undecided,
                seckill.drift(List.of(sku)).get(sku));
    }

    /** Each buyer's units, once MySQL decided as many orders as were accepted (or the patience ran out). */
    private static Map<String, Long> awaitDecided(SeckillSaleDesign seckill, long sku, int accepted) throws Exception {
        long deadline = System.nanoTime() + DECIDED_WITHIN.toNanos();
        Map<String, Long> units = seckill.unitsPerBuyer(List.of(sku));
        while (units.size() + rejected(seckill, sku) < accepted && System.nanoTime() < deadline) {
            Thread.sleep(200);
            units = seckill.unitsPerBuyer(List.of(sku));
        }
        return units;
    }

    /** The sale's rejected orders, all reasons, as the operator's feed counts them. */
    private static long rejected(SeckillSaleDesign seckill, long sku) throws Exception {
        long rejected = 0;
        for (JsonNode sale : watch(seckill).path("sales")) {
            if (sale.path("skuId").asLong() == sku) {
                for (JsonNode count : sale.path("rejectedOrders")) {
                    rejected += count.asLong();
                }
            }
        }
        return rejected;
    }

    /**
     * Admissions a second from the buyers' own admission times (when each saw itself admitted), over the 10 s from 2 s
     * after the start: not the room's own count of them.
     */
    private static double admittedPerSecond(List<Buyer> buyers, long startMs) {
        return buyers.stream()
                        .filter(buyer -> buyer.admittedAtMs() >= startMs + 2_000
                                && buyer.admittedAtMs() < startMs + 12_000)
                        .count()
                / 10.0;
    }

    /** Every buy this ingress answered so far, whatever the answer: what the buy route saw. */
    private static long buyAnswers(SeckillSaleDesign seckill) throws Exception {
        long sum = 0;
        for (JsonNode count : watch(seckill).path("buyAnswers")) {
            sum += count.asLong();
        }
        return sum;
    }

    private static JsonNode watch(SeckillSaleDesign seckill) throws Exception {
        HttpResponse<String> watch = HTTP.send(
                HttpRequest.newBuilder(seckill.admin().admin().resolve("/admin/v1/watch"))
                        .header("Authorization", "Bearer " + seckill.admin().adminToken())
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(watch.body());
    }

    /** Every command Redis counted so far but the benchmark's own, over all primaries. */
    private static long redisCalls(List<RedisPrimaries.Primary> primaries) {
        return HotSkuBenchmark.commandStats(primaries).stream()
                .flatMap(stats -> stats.values().stream())
                .mapToLong(HotSkuBenchmark.CommandCost::calls)
                .sum();
    }

    private static void sleepUntil(long epochMs) throws InterruptedException {
        long wait = epochMs - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private String line(Round round) {
        return String.format(
                Locale.ROOT,
                "first-arrived half won %.1f%% of the pre-queue's %d wins (fair within +-%.1f%%: %s); admitted %.0f/s"
                        + " (set %d/s, from the buyers' own admission times); %,d admitted, %,d buys; %,d polls, %.4f"
                        + " Redis calls a poll; unexpected answers %d; sold %d of %d, oversold %d, over the limit %d,"
                        + " undecided %d, drift %d",
                100 * round.firstHalfShare(), round.preQueueWinners(), 100 * round.interval(),
                round.fair() ? "yes" : "NO", round.admittedPerSecond(), rate, round.admitted(), round.buyRequests(),
                round.polls(), round.redisCallsPerPoll(), round.unexpectedAnswers(), round.sold(), units,
                round.oversold(), round.overLimit(), round.undecided(), round.drift());
    }

    private String table(List<Round> rounds) {
        return String.format(
                Locale.ROOT,
                "| median of %d rounds | first-arrived half's share of the pre-queue's wins (99%% interval) |"
                        + " admitted/s (set) | buys / admitted | Redis calls a poll | sold / units | promises |%n"
                        + "|---|---|---|---|---|---|---|%n| %,d early + %,d late buyers | %.1f%% (50 +- %.1f%%) | %.0f"
                        + " (%d) | %.0f / %.0f | %.4f | %.0f / %d | %s |",
                rounds.size(),
                early,
                late,
                100 * Report.median(rounds, Round::firstHalfShare),
                100 * Report.median(rounds, Round::interval),
                Report.median(rounds, Round::admittedPerSecond),
                rate,
                Report.median(rounds, Round::buyRequests),
                Report.median(rounds, Round::admitted),
                Report.median(rounds, Round::redisCallsPerPoll),
                Report.median(rounds, Round::sold),
                units,
                rounds.stream().allMatch(Round::promisesHeld) ? "held" : "BROKEN");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new WaitingRoomBenchmark()).execute(args));
    }
}
