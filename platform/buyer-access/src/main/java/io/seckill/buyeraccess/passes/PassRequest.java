package io.seckill.buyeraccess.passes;

/**
 * Body of {@code POST /api/v1/skus/{skuId}/passes}: the answer to the challenge, as the challenge's type asks.
 *
 * @param challenge       proof-of-work: the challenge as issued
 * @param solution        proof-of-work: the solution found
 * @param captchaResponse captcha: the token the provider's widget gave the buyer
 */
public record PassRequest(String challenge, String solution, String captchaResponse) {
}
