package io.seckill.ingress.identity;

import io.javalin.http.Context;
import io.seckill.schemas.api.Problem;

/** Who is buying: every buyer endpoint asks this first. */
public interface BuyerIdentity {

    /** @throws io.seckill.ingress.Problem 401 (or 400 for a malformed asserted id) when there is no trustworthy buyer */
    String userId(Context ctx);
}
