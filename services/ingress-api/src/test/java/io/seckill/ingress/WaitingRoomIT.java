package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.seckill.localinfra.LocalInfrastructure;
import io.seckill.redisstate.SkuKeys;
import io.seckill.schemas.pass.ProofOfWork;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** Waiting rooms through a real ingress and Redis: joining, where a buyer stands, and who may get a pass. */
class WaitingRoomIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration PAUSE = Duration.ofSeconds(8);

    private final IngressFixture fixture = IngressFixture.get();
    private final HttpApi http = fixture.http;

    private long roomSale(int stock, Instant startsAt, int admissionPerSecond) {
        long sku = IngressFixture.newSkuId();
        HttpApi.Reply defined =
                http.defineSaleWithRoom(sku, stock, startsAt, startsAt.plus(Duration.ofHours(1)), admissionPerSecond);
        assertThat(defined.status()).as(defined.body()).isEqualTo(201);
        assertThat(defined.json().path("admissionPerSecond").asInt()).isEqualTo(admissionPerSecond);
        return sku;
    }

    @Test
    void joiningTwiceKeepsThePlaceBeforeTheStartAndAfterIt() {
        long early = roomSale(10, Instant.now().plus(Duration.ofMinutes(10)), 100);
        HttpApi.Reply first = http.join("early-bird", early);
        HttpApi.Reply again = http.join("early-bird", early);
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("ticket")).isEqualTo(first.json().path("ticket"));
        assertThat(again.json().path("status").asText()).isEqualTo("WAITING");
        assertThat(again.json().path("estimatedWaitSeconds").asLong()).isGreaterThanOrEqualTo(9 * 60);
        assertThat(again.retryAfter()).isNotNull();

        long started = roomSale(10, Instant.now().minusSeconds(1), 1);
        HttpApi.Reply arrived = http.join("late-bird", started);
        HttpApi.Reply arrivedAgain = http.join("late-bird", started);
        assertThat(arrived.status()).isEqualTo(201);
        assertThat(arrivedAgain.status()).isEqualTo(200);
        assertThat(arrivedAgain.json().path("place").asLong()).isEqualTo(arrived.json().path("place").asLong());
        assertThat(arrivedAgain.json().path("ticket")).isEqualTo(arrived.json().path("ticket"));
    }

    @Test
    void aBuyerNotYetAdmittedGetsNoPassAndAnAdmittedOneBuys() throws Exception {
        long sku = roomSale(10, Instant.now().plus(Duration.ofMinutes(2)), 100);
        String ticket = http.join("waiting-wanda", sku).json().path("ticket").asText();

        HttpApi.Reply withoutTicket = http.pass("waiting-wanda", sku, answer("waiting-wanda", sku));
        assertThat(withoutTicket.status()).isEqualTo(409);
        assertThat(withoutTicket.code()).isEqualTo("NOT_YET_ADMITTED");
        assertThat(withoutTicket.json().path("queueUrl").asText()).isEqualTo("/api/v1/skus/" + sku + "/queue");
        HttpApi.Reply waiting = http.passWithTicket("waiting-wanda", sku, answer("waiting-wanda", sku), ticket);
        assertThat(waiting.status()).isEqualTo(409);
        assertThat(waiting.code()).isEqualTo("NOT_YET_ADMITTED");
        assertThat(waiting.json().path("place").asLong()).isEqualTo(1);
        assertThat(waiting.retryAfter()).isNotNull();

        long open = roomSale(10, Instant.now().minusSeconds(1), 100);
        String admitted = http.join("admitted-adam", open).json().path("ticket").asText();
        await().atMost(Duration.ofSeconds(5))
                .until(() -> http.standing("admitted-adam", open, admitted).json().path("status").asText(),
                        "ADMITTED"::equals);
        String pass = http.passFor("admitted-adam", open, admitted);
        assertThat(http.buyWithPass(open, "admitted-adam", 1, pass).status()).isEqualTo(202);
    }

    @Test
    void aTicketIsRefusedForAnotherBuyerOrSaleOrAltered() {
        long sku = roomSale(10, Instant.now().plus(Duration.ofMinutes(2)), 100);
        long other = roomSale(10, Instant.now().plus(Duration.ofMinutes(2)), 100);
        String ticket = http.join("ticket-tom", sku).json().path("ticket").asText();
        String altered = ticket.substring(0, ticket.length() - 2) + (ticket.endsWith("AA") ? "BB" : "AA");
        List<HttpApi.Reply> refused = List.of(
                http.standing("ticket-tina", sku, ticket),
                http.standing("ticket-tom", other, ticket),
                http.standing("ticket-tom", sku, altered),
                http.standing("ticket-tom", sku, "not-a-ticket"));
        for (HttpApi.Reply reply : refused) {
            assertThat(reply.status()).as(reply.body()).isEqualTo(403);
            assertThat(reply.code()).isEqualTo("QUEUE_TICKET_INVALID");
        }
        assertThat(http.standing("ticket-tom", sku, ticket).status()).isEqualTo(200);
    }

    /**
     * A room missing from Redis while the sale's definition has one (lost with its primary) fails closed: its queue and
     * its passes answer 503 until it is back, never let anyone through. Back, it is a new line: the tickets of the lost
     * one, whose places Redis lost, are refused as stale, and joining again places the buyer in the new one.
     */
    @Test
    void aRoomMissingFromRedisFailsClosedAndItsRestoredLineRefusesTheLostLinesTickets() throws Exception {
        Instant startsAt = Instant.now().minusSeconds(1);
        long sku = roomSale(10, startsAt, 100);
        String lost = http.join("closed-carl", sku).json().path("ticket").asText();
        assertThat(http.standing("closed-carl", sku, lost).status()).isEqualTo(200);

        fixture.redis.del(SkuKeys.room(sku));

        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            HttpApi.Reply standing = http.standing("closed-carl", sku, lost);
            assertThat(standing.status()).as(standing.body()).isEqualTo(503);
            assertThat(standing.code()).isEqualTo("SALE_RESTORING");
            assertThat(standing.retryAfter()).isNotNull();
        });
        HttpApi.Reply pass = http.passWithTicket("closed-carl", sku, answer("closed-carl", sku), lost);
        assertThat(pass.status()).as(pass.body()).isEqualTo(503);
        assertThat(pass.code()).isEqualTo("SALE_RESTORING");
        assertThat(http.join("closed-cora", sku).code()).isEqualTo("SALE_RESTORING");

        assertThat(http.defineSaleWithRoom(sku, 10, startsAt, startsAt.plus(Duration.ofHours(1)), 100).status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            HttpApi.Reply stale = http.standing("closed-carl", sku, lost);
            assertThat(stale.status()).as(stale.body()).isEqualTo(403);
            assertThat(stale.code()).isEqualTo("QUEUE_TICKET_STALE");
        });
        // Only the room was lost here, not the buyer's place in its bucket: joining again gives it back.
        HttpApi.Reply rejoined = http.join("closed-carl", sku);
        assertThat(rejoined.status()).as(rejoined.body()).isEqualTo(200);
        assertThat(rejoined.json().path("ticket").asText()).isNotEqualTo(lost);
        assertThat(http.standing("closed-carl", sku, rejoined.json().path("ticket").asText()).status())
                .isEqualTo(200);
    }

    @Test
    void soldOutReachesEveryWaitingBuyerOnTheirNextPoll() {
        long sku = roomSale(1, Instant.now().minusSeconds(1), 1);
        String winner = http.join("winner-will", sku).json().path("ticket").asText();
        List<String> waiting = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            waiting.add(http.join("waiter-" + i, sku).json().path("ticket").asText());
        }
        await().atMost(Duration.ofSeconds(5))
                .until(() -> http.standing("winner-will", sku, winner).json().path("status").asText(),
                        "ADMITTED"::equals);
        assertThat(http.buyWithPass(sku, "winner-will", 1, http.passFor("winner-will", sku, winner)).status())
                .isEqualTo(202);

        for (int i = 0; i < waiting.size(); i++) {
            HttpApi.Reply before = http.standing("waiter-" + i, sku, waiting.get(i));
            long retryAfter = before.retryAfter() == null ? 0 : Long.parseLong(before.retryAfter());
            String buyer = "waiter-" + i;
            String ticket = waiting.get(i);
            await().atMost(Duration.ofSeconds(Math.max(retryAfter, 1) + 1))
                    .until(() -> http.standing(buyer, sku, ticket).json().path("status").asText(), "SOLD_OUT"::equals);
        }
    }

    @Test
    void whereABuyerStandsIsAnsweredWhileRedisAnswersNothing() {
        long sku = roomSale(10, Instant.now().plus(Duration.ofMinutes(2)), 100);
        Map<String, String> tickets = Map.of(
                "paused-pia", http.join("paused-pia", sku).json().path("ticket").asText(),
                "paused-paul", http.join("paused-paul", sku).json().path("ticket").asText());
        tickets.forEach((buyer, ticket) -> assertThat(http.standing(buyer, sku, ticket).status()).isEqualTo(200));
        URI redis = LocalInfrastructure.get().addresses().redis().firstNodeUri();
        try (Jedis operator = new Jedis(redis)) {
            // Redis holds every command, this connection's too, for the pause: each poll must answer within its three
            // seconds meanwhile, and the last must come while Redis still holds its commands.
            operator.clientPause(PAUSE.toMillis(), ClientPauseMode.ALL);
        }
        for (int round = 0; round < 50; round++) {
            tickets.forEach((buyer, ticket) -> {
                HttpApi.Reply reply = http.standing(buyer, sku, ticket);
                assertThat(reply.status()).as(reply.body()).isEqualTo(200);
                assertThat(reply.json().path("status").asText()).isEqualTo("WAITING");
            });
        }
        assertThatThrownBy(() -> {
                    try (Jedis probe = new Jedis(
                            redis, DefaultJedisClientConfig.builder().socketTimeoutMillis(500).build())) {
                        probe.ping();
                    }
                })
                .as("Redis still held its commands after the last poll")
                .isInstanceOf(JedisConnectionException.class);
        await().atMost(PAUSE.multipliedBy(2)).ignoreExceptions().until(() -> {
            try (Jedis probe = new Jedis(redis)) {
                return "PONG".equals(probe.ping());
            }
        });
    }

    @Test
    void aSaleWithoutARoomHasNoQueueAndGivesPassesAsBefore() {
        long sku = IngressFixture.newSkuId();
        Instant now = Instant.now();
        assertThat(http.defineSale(sku, 5, 1, now.minusSeconds(60), now.plusSeconds(3600), true).status())
                .isEqualTo(201);
        HttpApi.Reply join = http.join("roomless-rita", sku);
        assertThat(join.status()).isEqualTo(409);
        assertThat(join.code()).isEqualTo("NO_WAITING_ROOM");
        assertThat(http.buyWithPass(sku, "roomless-rita", 1, http.passFor("roomless-rita", sku)).status())
                .isEqualTo(202);

        HttpApi.Reply unknown = http.join("roomless-rita", IngressFixture.newSkuId());
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("SKU_NOT_FOUND");
    }

    @Test
    void aRoomNeedsPassesAndARateOfAtLeastOne() {
        long sku = IngressFixture.newSkuId();
        Instant now = Instant.now();
        String terms = "\"stock\":5,\"perUserLimit\":1,\"startsAt\":\"" + now + "\",\"endsAt\":\""
                + now.plusSeconds(3600) + "\"";
        for (String refused : List.of(
                terms + ",\"passRequired\":false,\"admissionPerSecond\":10",
                terms + ",\"admissionPerSecond\":0")) {
            HttpApi.Reply reply = http.defineSale(sku, refused);
            assertThat(reply.status()).as(refused).isEqualTo(400);
            assertThat(reply.code()).isEqualTo("VALIDATION_FAILED");
        }
        assertThat(http.figures(sku).status()).isEqualTo(404);
    }

    /** A solved challenge of the buyer's, as the pass route's body. */
    private String answer(String buyer, long sku) {
        HttpApi.Reply challenge = http.challenge(buyer, sku);
        assertThat(challenge.status()).as(challenge.body()).isEqualTo(201);
        String puzzle = challenge.json().path("challenge").asText();
        ObjectNode answer = JSON.createObjectNode();
        answer.put("challenge", puzzle);
        answer.put("solution", ProofOfWork.solve(puzzle, challenge.json().path("difficulty").asInt()));
        return answer.toString();
    }
}
