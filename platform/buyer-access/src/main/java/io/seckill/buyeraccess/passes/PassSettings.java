package io.seckill.buyeraccess.passes;

import io.seckill.buyeraccess.tokens.TokenSettings;
import io.seckill.config.DeploymentMode;
import io.seckill.config.Env;
import io.seckill.config.Secrets;
import io.seckill.redisstate.SpentChallenges;
import io.seckill.schemas.pass.ProofOfWork;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How sale passes are given out: the key that signs them, how long before a sale opens they are given out
 * ({@code window}), how long after it opens they stay good ({@code lifetime}), and the challenge that earns one.
 */
public record PassSettings(
        PassKey key,
        Duration window,
        Duration lifetime,
        Challenge challenge,
        int difficulty,
        Optional<Captcha> captcha) {

    public static final String SECRET = "SECKILL_PASS_SECRET";
    public static final String DIFFICULTY = "SECKILL_PASS_DIFFICULTY";
    public static final String CHALLENGE = "SECKILL_PASS_CHALLENGE";
    /** A browser's SHA-256 solves this many bits in about a second. */
    public static final int DEFAULT_DIFFICULTY = 18;

    /** What earns a pass. */
    public enum Challenge {
        PROOF_OF_WORK("proof-of-work"),
        CAPTCHA("captcha");

        private final String setting;

        Challenge(String setting) {
            this.setting = setting;
        }

        static Challenge named(String value) {
            return Arrays.stream(values())
                    .filter(challenge -> challenge.setting.equals(value.toLowerCase(Locale.ROOT)))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            CHALLENGE + " must be proof-of-work or captcha, was " + value));
        }
    }

    /**
     * A captcha provider's verification endpoint, the shop's secret with it, the site key its widget shows, the
     * hostnames of the shop's pages the widget runs on (none: any) and the action it is shown for (null: any).
     */
    public record Captcha(URI verifyUrl, String secret, String siteKey, Set<String> hostnames, String action) {
        /** The secret never shows. */
        @Override
        public String toString() {
            return "Captcha[verifyUrl=" + verifyUrl + ", siteKey=" + siteKey + ", hostnames=" + hostnames + ", action="
                    + action + ", secret=(hidden)]";
        }
    }

    public PassSettings {
        if (difficulty < 0 || difficulty > ProofOfWork.MAX_DIFFICULTY) {
            throw new IllegalArgumentException(
                    DIFFICULTY + " must be from 0 to " + ProofOfWork.MAX_DIFFICULTY + ", was " + difficulty);
        }
        if (challenge == Challenge.CAPTCHA && captcha.isEmpty()) {
            throw new IllegalArgumentException(CHALLENGE
                    + "=captcha needs SECKILL_CAPTCHA_VERIFY_URL, SECKILL_CAPTCHA_SECRET and SECKILL_CAPTCHA_SITE_KEY");
        }
    }

    /**
     * Read and checked. The key is {@value #SECRET} if set (checked like every secret), else derived from the token
     * secret, so a deployment that signs tokens with a shared secret needs no second one.
     */
    public static PassSettings from(Env env, DeploymentMode mode, TokenSettings tokens) {
        PassKey key;
        if (env.string(SECRET, null) != null) {
            key = PassKey.of(Secrets.required(env, mode, SECRET, TokenSettings.MIN_SECRET_BYTES));
        } else if (!tokens.hmacSecrets().isEmpty()) {
            key = PassKey.derivedFrom(tokens.hmacSecrets().get(0));
        } else {
            throw new IllegalArgumentException(
                    SECRET + " is required when tokens are verified by an identity provider's keys alone (at least "
                            + TokenSettings.MIN_SECRET_BYTES + " bytes)");
        }
        Challenge challenge = Challenge.named(env.string(CHALLENGE, Challenge.PROOF_OF_WORK.setting));
        Optional<Captcha> captcha = switch (challenge) {
            case PROOF_OF_WORK -> Optional.empty();
            case CAPTCHA -> Optional.of(captcha(env, mode));
        };
        return new PassSettings(
                key,
                env.millis("SECKILL_PASS_WINDOW_MS", Duration.ofMinutes(5)),
                env.millis("SECKILL_PASS_LIFETIME_MS", Duration.ofMinutes(5)),
                challenge,
                env.integer(DIFFICULTY, DEFAULT_DIFFICULTY),
                captcha);
    }

    /**
     * The provider's settings: in production its endpoint over https (the secret crosses it) and the hostnames the
     * widget may have been solved on named, so a token solved on another site is refused.
     */
    private static Captcha captcha(Env env, DeploymentMode mode) {
        URI verifyUrl = URI.create(required(env, "SECKILL_CAPTCHA_VERIFY_URL"));
        Set<String> hostnames = Arrays.stream(env.string("SECKILL_CAPTCHA_HOSTNAMES", "").split(",", -1))
                .map(String::strip)
                .filter(name -> !name.isEmpty())
                .collect(Collectors.toUnmodifiableSet());
        if (mode == DeploymentMode.PRODUCTION) {
            if (!"https".equals(verifyUrl.getScheme())) {
                throw new IllegalArgumentException(
                        "SECKILL_CAPTCHA_VERIFY_URL must be an https: URL in production (the shop's secret"
                                + " crosses it)");
            }
            if (hostnames.isEmpty()) {
                throw new IllegalArgumentException("SECKILL_CAPTCHA_HOSTNAMES is required with " + CHALLENGE
                        + "=captcha in production: the hostnames of the shop's pages the captcha is solved on");
            }
        }
        String action = env.string("SECKILL_CAPTCHA_ACTION", null);
        return new Captcha(
                verifyUrl,
                Secrets.required(env, mode, "SECKILL_CAPTCHA_SECRET", 1),
                required(env, "SECKILL_CAPTCHA_SITE_KEY"),
                hostnames,
                action == null || action.isBlank() ? null : action);
    }

    private static String required(Env env, String name) {
        String value = env.string(name, null);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is required with " + CHALLENGE + "=captcha");
        }
        return value;
    }

    /** The challenge this configuration poses. */
    public ChallengePort challenges(SpentChallenges spent) {
        return switch (challenge) {
            case PROOF_OF_WORK -> new ProofOfWorkChallenges(key, difficulty, spent);
            case CAPTCHA -> {
                Captcha provider = captcha.orElseThrow();
                yield new CaptchaChallenges(provider);
            }
        };
    }
}
