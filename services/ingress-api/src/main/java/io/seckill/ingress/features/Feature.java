package io.seckill.ingress.features;

import io.javalin.config.JavalinConfig;

/**
 * One feature of the ingress (buying, passes, orders, payment and cancellation, the admin's, the operator page): the
 * routes it answers, each on the listener it belongs to. A feature adds its routes here and nowhere else.
 */
public interface Feature {

    /** Adds the routes buyers call, on the buyers' listener. */
    default void buyersRoutes(JavalinConfig buyers) {
        // Most features serve one side only.
    }

    /** Adds the operators' routes, on the admin listener, behind its guard. */
    default void adminRoutes(JavalinConfig admin) {
        // Most features serve one side only.
    }
}
