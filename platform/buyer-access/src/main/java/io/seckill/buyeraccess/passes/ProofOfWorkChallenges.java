package io.seckill.buyeraccess.passes;

import io.seckill.redisstate.SpentChallenges;
import io.seckill.schemas.api.ErrorCode;
import io.seckill.schemas.api.Problem;
import io.seckill.schemas.pass.ProofOfWork;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * The built-in challenge: a {@link ProofOfWork} puzzle, {@code c1.SKU.EXPIRES_MS.DIFFICULTY.NONCE.SIGNATURE}, signed
 * over the buyer too, so it is issued without being stored and answers only for the buyer and sale it was issued for.
 * Each is answered once: its nonce is spent in Redis until it expires.
 */
public final class ProofOfWorkChallenges implements ChallengePort {

    /** Long enough to solve on a slow phone, short enough that a stock of solved challenges goes stale. */
    static final Duration LIFETIME = Duration.ofMinutes(2);
    private static final String VERSION = "c1";
    private static final int NONCE_BYTES = 16;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final PassKey key;
    private final int difficulty;
    private final SpentChallenges spent;
    private final SecureRandom random = new SecureRandom();

    public ProofOfWorkChallenges(PassKey key, int difficulty, SpentChallenges spent) {
        this.key = key;
        this.difficulty = difficulty;
        this.spent = spent;
    }

    @Override
    public Posed pose(String buyer, long skuId, Instant now) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        long expiresMs = now.plus(LIFETIME).toEpochMilli();
        String body = VERSION + "." + skuId + "." + expiresMs + "." + difficulty + "." + ENCODER.encodeToString(nonce);
        return new Posed(
                "proof-of-work",
                body + "." + key.sign(signed(buyer, body)),
                difficulty,
                "SHA-256(challenge + \":\" + solution) begins with `difficulty` zero bits",
                Instant.ofEpochMilli(expiresMs).toString());
    }

    /**
     * A proof of work posed: the signed challenge, how many leading zero bits its solution's digest needs, and until
     * when.
     */
    record Posed(String type, String challenge, int difficulty, String algorithm, String expiresAt)
            implements Challenge {}

    @Override
    public void check(String buyer, long skuId, PassRequest answer, String clientAddress, Instant now) {
        String challenge = answer.challenge();
        if (challenge == null || answer.solution() == null) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "challenge and solution are required");
        }
        Issued issued =
                Issued.parse(challenge).orElseThrow(() -> failed("the challenge is not one this service issued"));
        if (!key.verifies(signed(buyer, issued.body()), issued.signature())) {
            throw failed("the challenge was not issued to this buyer, or was altered");
        }
        if (issued.skuId() != skuId) {
            throw failed("the challenge is for SKU " + issued.skuId() + ", not " + skuId);
        }
        if (now.toEpochMilli() >= issued.expiresMs()) {
            throw failed(
                    "the challenge expired at " + Instant.ofEpochMilli(issued.expiresMs()) + "; ask for a new one");
        }
        if (!ProofOfWork.solves(challenge, answer.solution(), issued.difficulty())) {
            throw failed("the solution does not solve the challenge");
        }
        if (!spent.spend(issued.nonce(), Duration.ofMillis(issued.expiresMs() - now.toEpochMilli()))) {
            throw new Problem(ErrorCode.CHALLENGE_REPLAYED, "this challenge was answered already; ask for a new one");
        }
    }

    /** The difficulty a challenge was issued with, as a solver reads it. */
    public static int difficultyOf(String challenge) {
        return Issued.parse(challenge)
                .orElseThrow(() -> new IllegalArgumentException("not a proof-of-work challenge: " + challenge))
                .difficulty();
    }

    /** A challenge's parts, read back from its text: {@code body} is what its {@code signature} signs. */
    private record Issued(String body, String signature, long skuId, long expiresMs, int difficulty, String nonce) {

        static Optional<Issued> parse(String text) {
            String[] parts = text.split("\\.", -1);
            if (parts.length != 6 || !VERSION.equals(parts[0])) {
                return Optional.empty();
            }
            try {
                return Optional.of(new Issued(
                        text.substring(0, text.lastIndexOf('.')),
                        parts[5],
                        Long.parseLong(parts[1]),
                        Long.parseLong(parts[2]),
                        Integer.parseInt(parts[3]),
                        parts[4]));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }
    }

    private static String signed(String buyer, String body) {
        return "challenge|" + buyer.length() + ":" + buyer + "|" + body;
    }

    private static Problem failed(String why) {
        return new Problem(ErrorCode.CHALLENGE_FAILED, why);
    }
}
