package io.seckill.ingress.identity;

import io.seckill.ingress.http.ErrorCode;
import io.seckill.ingress.http.Problem;
import io.javalin.http.Context;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/** Admin endpoints need the admin credential as the bearer; anything else, a buyer's token included, is 403. */
public final class AdminGuard {

    public static final int MIN_TOKEN_LENGTH = 16;
    private final byte[] adminToken;

    public AdminGuard(String adminToken) {
        if (adminToken == null || adminToken.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("the admin token must be at least " + MIN_TOKEN_LENGTH + " characters");
        }
        this.adminToken = adminToken.getBytes(StandardCharsets.UTF_8);
    }

    public void check(Context ctx) {
        String presented = BearerCredential.of(ctx);
        if (presented == null || !MessageDigest.isEqual(adminToken, presented.getBytes(StandardCharsets.UTF_8))) {
            throw new Problem(ErrorCode.FORBIDDEN, "admin endpoints need the admin credential");
        }
    }
}
