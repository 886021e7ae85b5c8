package io.seckill.ingress.pass;

import io.seckill.schemas.pass.ProofOfWork;

import io.seckill.ingress.http.ErrorCode;
import io.seckill.ingress.http.Problem;
import io.seckill.redisstate.SpentChallenges;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

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
    public Map<String, Object> pose(String buyer, long skuId, Instant now) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        long expiresMs = now.plus(LIFETIME).toEpochMilli();
        String body = VERSION + "." + skuId + "." + expiresMs + "." + difficulty + "." + ENCODER.encodeToString(nonce);
        Map<String, Object> challenge = new LinkedHashMap<>();
        challenge.put("type", "proof-of-work");
        challenge.put("challenge", body + "." + key.sign(signed(buyer, body)));
        challenge.put("difficulty", difficulty);
        challenge.put("algorithm", "SHA-256(challenge + \":\" + solution) begins with `difficulty` zero bits");
        challenge.put("expiresAt", Instant.ofEpochMilli(expiresMs).toString());
        return challenge;
    }

    @Override
    public void check(String buyer, long skuId, PassRequest answer, String clientAddress, Instant now) {
        String challenge = answer.challenge();
        if (challenge == null || answer.solution() == null) {
            throw new Problem(ErrorCode.VALIDATION_FAILED, "challenge and solution are required");
        }
        int signatureAt = challenge.lastIndexOf('.');
        String[] parts = challenge.split("\\.", -1);
        if (parts.length != 6 || !VERSION.equals(parts[0])) {
            throw failed("the challenge is not one this service issued");
        }
        String body = challenge.substring(0, signatureAt);
        if (!key.verifies(signed(buyer, body), challenge.substring(signatureAt + 1))) {
            throw failed("the challenge was not issued to this buyer, or was altered");
        }
        // Signed, so these parse.
        long issuedForSku = Long.parseLong(parts[1]);
        long expiresMs = Long.parseLong(parts[2]);
        int issuedDifficulty = Integer.parseInt(parts[3]);
        if (issuedForSku != skuId) {
            throw failed("the challenge is for SKU " + issuedForSku + ", not " + skuId);
        }
        if (now.toEpochMilli() >= expiresMs) {
            throw failed("the challenge expired at " + Instant.ofEpochMilli(expiresMs) + "; ask for a new one");
        }
        if (!ProofOfWork.solves(challenge, answer.solution(), issuedDifficulty)) {
            throw failed("the solution does not solve the challenge");
        }
        if (!spent.spend(parts[4], Duration.ofMillis(expiresMs - now.toEpochMilli()))) {
            throw new Problem(ErrorCode.CHALLENGE_REPLAYED, "this challenge was answered already; ask for a new one");
        }
    }

    /** The difficulty a challenge was issued with, as a solver reads it. */
    public static int difficultyOf(String challenge) {
        String[] parts = challenge.split("\\.", -1);
        if (parts.length != 6 || !VERSION.equals(parts[0])) {
            throw new IllegalArgumentException("not a proof-of-work challenge: " + challenge);
        }
        try {
            return Integer.parseInt(parts[3]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a proof-of-work challenge: " + challenge, e);
        }
    }

    private static String signed(String buyer, String body) {
        return "challenge|" + buyer.length() + ":" + buyer + "|" + body;
    }

    private static Problem failed(String why) {
        return new Problem(ErrorCode.CHALLENGE_FAILED, why);
    }
}
