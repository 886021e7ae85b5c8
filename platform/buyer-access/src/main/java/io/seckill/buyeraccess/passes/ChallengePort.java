package io.seckill.buyeraccess.passes;

import java.time.Instant;

/**
 * What a buyer must do to earn a sale pass: the built-in proof of work ({@link ProofOfWorkChallenges}) or a captcha
 * provider's check ({@link CaptchaChallenges}); another provider plugs in here.
 */
public interface ChallengePort {

    /**
     * The challenge for {@code buyer} to get a pass to SKU {@code skuId}: the body of the answer to a challenge
     * request.
     */
    Challenge pose(String buyer, long skuId, Instant now);

    /**
     * Checks the buyer's answer; returns only when it earns a pass.
     * @param clientAddress the buyer's address, which captcha providers weigh
     * @throws io.seckill.schemas.api.Problem CHALLENGE_FAILED or CHALLENGE_REPLAYED saying why, or SERVICE_UNAVAILABLE
     *         when the check could not be made
     */
    void check(String buyer, long skuId, PassRequest answer, String clientAddress, Instant now);
}
