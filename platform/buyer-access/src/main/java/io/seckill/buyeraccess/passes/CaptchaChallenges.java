package io.seckill.buyeraccess.passes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * A captcha provider's check, by the verification protocol reCAPTCHA, hCaptcha and Turnstile share: the buyer's page
 * shows the provider's widget with {@code siteKey}; the token it yields is posted here, and the provider's
 * {@code siteverify} endpoint (form fields {@code secret}, {@code response}, {@code remoteip}) answers
 * {@code {"success": true|false, "error-codes": [...], "hostname": ..., "action": ...}}. Providers refuse a token seen
 * before, so replays fail there. A token solved on a page of another hostname than the shop's (a site that harvests
 * solutions), or for another action, is refused here.
 */
public final class CaptchaChallenges implements ChallengePort {

    static final Duration TIMEOUT = Duration.ofSeconds(3);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI verifyUrl;
    private final String secret;
    private final String siteKey;
    private final Set<String> hostnames;
    private final String action;
    private final HttpClient http;

    public CaptchaChallenges(PassSettings.Captcha provider) {
        this.verifyUrl = provider.verifyUrl();
        this.secret = provider.secret();
        this.siteKey = provider.siteKey();
        this.hostnames = provider.hostnames();
        this.action = provider.action();
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    @Override
    public Posed pose(String buyer, long skuId, Instant now) {
        return new Posed("captcha", siteKey);
    }

    /** A captcha to solve with the provider's widget for {@code siteKey}. */
    record Posed(String type, String siteKey) implements Challenge {
    }

    @Override
    public void check(String buyer, long skuId, PassRequest answer, String clientAddress, Instant now) {
        if (answer.captchaResponse() == null || answer.captchaResponse().isBlank()) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "captchaResponse is required");
        }
        String form = "secret=" + encode(secret) + "&response=" + encode(answer.captchaResponse()) + "&remoteip="
                + encode(clientAddress);
        JsonNode verdict;
        try {
            HttpResponse<String> reply = http.send(HttpRequest.newBuilder(verifyUrl).timeout(TIMEOUT)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
            if (reply.statusCode() != 200) {
                throw unavailable("answered " + reply.statusCode());
            }
            verdict = JSON.readTree(reply.body());
        } catch (IOException e) {
            throw unavailable("could not be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unavailable("was not waited for");
        }
        if (!verdict.path("success").asBoolean(false)) {
            throw new Problem(ErrorCode.CHALLENGE_FAILED, "the captcha was not solved, or was used before")
                    .with("providerErrors", verdict.path("error-codes").toString());
        }
        String solvedOn = verdict.path("hostname").asText("");
        if (!hostnames.isEmpty() && !hostnames.contains(solvedOn)) {
            throw new Problem(ErrorCode.CHALLENGE_FAILED, "the captcha was solved on another site (" + solvedOn + ")");
        }
        if (action != null && !action.equals(verdict.path("action").asText(""))) {
            throw new Problem(ErrorCode.CHALLENGE_FAILED, "the captcha was solved for another action");
        }
    }

    private static Problem unavailable(String what) {
        return new Problem(ErrorCode.SERVICE_UNAVAILABLE, "the captcha provider " + what + "; try again")
                .with(Problem.RETRY_AFTER_SECONDS, 1);
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** The provider's secret never shows. */
    @Override
    public String toString() {
        return "CaptchaChallenges[verifyUrl=" + verifyUrl + ", siteKey=" + siteKey + ", hostnames=" + hostnames
                + ", action=" + action + "]";
    }
}
