package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import io.seckill.buyeraccess.passes.PassSettings;
import io.seckill.schemas.pass.ProofOfWork;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Sale passes through a real ingress and Redis: what a buy needs, what earns a pass, and what is refused. */
class PassIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final IngressFixture fixture = IngressFixture.get();
    private final HttpApi http = fixture.http;

    private long passSale(Instant startsAt) {
        long sku = IngressFixture.newSkuId();
        assertThat(http.defineSale(sku, 10, 2, startsAt, startsAt.plus(Duration.ofHours(1)), true)
                        .status())
                .isEqualTo(201);
        return sku;
    }

    @Test
    void aPassProtectedSaleSellsOnlyToBuyersShowingTheirOwnPassForIt() {
        long sku = passSale(Instant.now().minusSeconds(60));
        long otherSku = passSale(Instant.now().minusSeconds(60));

        HttpApi.Reply without = http.buy(sku, "alice", 1);
        assertThat(without.status()).isEqualTo(403);
        assertThat(without.code()).isEqualTo("PASS_REQUIRED");
        assertThat(without.json().path("challengeUrl").asText()).isEqualTo("/api/v1/skus/" + sku + "/pass-challenges");

        String alicesPass = http.passFor("alice", sku);
        HttpApi.Reply bob = http.buyWithPass(sku, "bob", 1, alicesPass);
        HttpApi.Reply otherSale = http.buyWithPass(sku, "alice", 1, http.passFor("alice", otherSku));
        HttpApi.Reply altered =
                http.buyWithPass(sku, "alice", 1, alicesPass.substring(0, alicesPass.length() - 2) + "xx");
        HttpApi.Reply garbage = http.buyWithPass(sku, "alice", 1, "not-a-pass");
        for (HttpApi.Reply refused : new HttpApi.Reply[] {bob, otherSale, altered, garbage}) {
            assertThat(refused.status()).isEqualTo(403);
            assertThat(refused.code()).isEqualTo("PASS_INVALID");
        }
        assertThat(otherSale.json().path("detail").asText()).contains("for SKU " + otherSku);
        assertThat(fixture.probe.heldBy(sku, "bob")).isZero();
        assertThat(fixture.probe.heldBy(sku, "alice")).isZero();

        assertThat(http.buyWithPass(sku, "alice", 1, alicesPass).status()).isEqualTo(202);
        assertThat(fixture.probe.heldBy(sku, "alice")).isEqualTo(1);
    }

    @Test
    void aSaleDefinedWithoutSayingWantsPasses() {
        long sku = IngressFixture.newSkuId();
        Instant now = Instant.now();
        HttpApi.Reply defined = http.send(HttpRequest.newBuilder(http.adminUri("/admin/v1/skus/" + sku))
                .header("Authorization", "Bearer " + HttpApi.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(
                        "{\"name\":\"silent\",\"stock\":5,\"perUserLimit\":1,\"startsAt\":\"" + now.minusSeconds(60)
                                + "\",\"endsAt\":\"" + now.plusSeconds(3600) + "\"}")));
        assertThat(defined.status()).isEqualTo(201);
        assertThat(defined.json().path("passRequired").asBoolean()).isTrue();

        HttpApi.Reply without = http.buy(sku, "hugo", 1);
        assertThat(without.status()).isEqualTo(403);
        assertThat(without.code()).isEqualTo("PASS_REQUIRED");
        assertThat(fixture.probe.heldBy(sku, "hugo")).isZero();
    }

    @Test
    void aSaleThatOptsOutSellsWithoutPasses() {
        long sku = IngressFixture.newSkuId();
        http.openSale(sku, 5, 1);
        assertThat(http.buy(sku, "carol", 1).status()).isEqualTo(202);
        assertThat(fixture.probe.heldBy(sku, "carol")).isEqualTo(1);
    }

    @Test
    void theChallengeRefusesWrongForeignAlteredAndReplayedAnswers() throws IOException {
        long sku = passSale(Instant.now().minusSeconds(60));
        long otherSku = passSale(Instant.now().minusSeconds(60));
        HttpApi.Reply challenge = http.challenge("dave", sku);
        assertThat(challenge.status()).isEqualTo(201);
        assertThat(challenge.json().path("type").asText()).isEqualTo("proof-of-work");
        assertThat(challenge.json().path("difficulty").asInt()).isEqualTo(PassSettings.DEFAULT_DIFFICULTY);
        String puzzle = challenge.json().path("challenge").asText();
        String solution = ProofOfWork.solve(puzzle, PassSettings.DEFAULT_DIFFICULTY);
        String wrong = wrongSolution(puzzle);
        String lowered = puzzle.replace("." + PassSettings.DEFAULT_DIFFICULTY + ".", ".0.");

        assertRefused(http.pass("dave", sku, answer(puzzle, wrong)), 403, "CHALLENGE_FAILED", "does not solve");
        assertRefused(
                http.pass("erin", sku, answer(puzzle, solution)), 403, "CHALLENGE_FAILED", "not issued to this buyer");
        assertRefused(http.pass("dave", otherSku, answer(puzzle, solution)), 403, "CHALLENGE_FAILED", "for SKU " + sku);
        assertRefused(http.pass("dave", sku, answer(lowered, "0")), 403, "CHALLENGE_FAILED", "altered");

        HttpApi.Reply pass = http.pass("dave", sku, answer(puzzle, solution));
        assertThat(pass.status()).isEqualTo(201);
        assertThat(pass.json().path("header").asText()).isEqualTo("Seckill-Pass");
        assertRefused(http.pass("dave", sku, answer(puzzle, solution)), 409, "CHALLENGE_REPLAYED", "answered already");
        assertThat(http.buyWithPass(sku, "dave", 1, pass.json().path("pass").asText()).status()).isEqualTo(202);
    }

    @Test
    void passesAreGivenOutFromTheWindowBeforeTheSaleUntilItEnds() {
        Instant now = Instant.now();
        long farOff = passSale(now.plus(Duration.ofHours(1)));
        HttpApi.Reply early = http.challenge("frank", farOff);
        assertRefused(early, 409, "PASS_WINDOW_NOT_OPEN", "given out from");
        // The window is five minutes by default: passes from 55 minutes from now.
        assertThat(Instant.parse(early.json().path("passesFrom").asText()))
                .isBetween(now.plus(Duration.ofMinutes(54)), now.plus(Duration.ofMinutes(56)));

        Instant startsAt = now.plus(Duration.ofMinutes(2));
        long soon = passSale(startsAt);
        String pass = http.passFor("frank", soon);
        HttpApi.Reply beforeTheStart = http.buyWithPass(soon, "frank", 1, pass);
        assertThat(beforeTheStart.code()).as("a good pass does not open the sale early").isEqualTo("SALE_NOT_STARTED");

        long ended = IngressFixture.newSkuId();
        assertThat(http.defineSale(ended, 5, 1, now.minus(Duration.ofHours(2)), now.minusSeconds(60), true)
                        .status())
                .isEqualTo(201);
        assertRefused(http.challenge("frank", ended), 409, "SALE_ENDED", "has ended");
        assertRefused(http.challenge("frank", IngressFixture.newSkuId()), 404, "SKU_NOT_FOUND", "no sale");
    }

    @Test
    void aCaptchaProvidersVerdictEarnsThePassWhenThatIsTheChallenge() throws Exception {
        Set<String> used = ConcurrentHashMap.newKeySet();
        HttpServer provider = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        // The siteverify protocol: form fields secret and response; a token is good once.
        provider.createContext("/siteverify", exchange -> {
            String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            boolean success = form.contains("secret=the-shops-captcha-secret")
                    && form.contains("response=solved-by-a-human")
                    && used.add(form);
            byte[] body = ("{\"success\":" + success + (success ? "" : ",\"error-codes\":[\"invalid-input-response\"]")
                            + "}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        provider.start();
        IngressConfig captcha = IngressConfig.from(
                fixture.env
                        .withDefault(PassSettings.CHALLENGE, "captcha")
                        .withDefault(
                                "SECKILL_CAPTCHA_VERIFY_URL",
                                "http://127.0.0.1:" + provider.getAddress().getPort() + "/siteverify")
                        .withDefault("SECKILL_CAPTCHA_SECRET", "the-shops-captcha-secret")
                        .withDefault("SECKILL_CAPTCHA_SITE_KEY", "the-shops-site-key"),
                fixture.infra);
        long sku = passSale(Instant.now().minusSeconds(60));
        try (ManagedIngress ingress = ManagedIngress.start(captcha)) {
            HttpApi api = ingress.http();
            HttpApi.Reply challenge = api.challenge("gina", sku);
            assertThat(challenge.status()).isEqualTo(201);
            assertThat(challenge.json().path("type").asText()).isEqualTo("captcha");
            assertThat(challenge.json().path("siteKey").asText()).isEqualTo("the-shops-site-key");

            assertRefused(
                    api.pass("gina", sku, "{\"captchaResponse\":\"a-bot-guessed\"}"),
                    403,
                    "CHALLENGE_FAILED",
                    "not solved");
            HttpApi.Reply pass = api.pass("gina", sku, "{\"captchaResponse\":\"solved-by-a-human\"}");
            assertThat(pass.status()).isEqualTo(201);
            assertThat(api.buyWithPass(sku, "gina", 1, pass.json().path("pass").asText()).status()).isEqualTo(202);
            assertRefused(
                    api.pass("gina", sku, "{\"captchaResponse\":\"solved-by-a-human\"}"),
                    403,
                    "CHALLENGE_FAILED",
                    "used before");

            provider.stop(0);
            assertRefused(
                    api.pass("gina", sku, "{\"captchaResponse\":\"solved-by-a-human\"}"),
                    503,
                    "SERVICE_UNAVAILABLE",
                    "captcha provider");
        } finally {
            provider.stop(0);
        }
    }

    private static String wrongSolution(String puzzle) {
        for (int counter = 0; ; counter++) {
            if (!ProofOfWork.solves(puzzle, "w" + counter, PassSettings.DEFAULT_DIFFICULTY)) {
                return "w" + counter;
            }
        }
    }

    private static String answer(String challenge, String solution) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.put("challenge", challenge);
        body.put("solution", solution);
        return JSON.writeValueAsString(body);
    }

    private static void assertRefused(HttpApi.Reply reply, int status, String code, String detail) {
        assertThat(reply.status()).as(reply.body()).isEqualTo(status);
        assertThat(reply.code()).isEqualTo(code);
        assertThat(reply.json().path("detail").asText()).contains(detail);
    }
}
