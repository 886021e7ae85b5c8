package io.seckill.ingress.identity;

import io.javalin.http.Context;

/** Who is buying: every buyer endpoint asks this first. */
public interface BuyerIdentity {

    /**
     * @throws io.seckill.ingress.Problem 401 (or 400 for a malformed asserted id) when there is no trustworthy buyer
     */
    String userId(Context ctx);
}
