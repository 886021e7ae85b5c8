package io.seckill.mysqlstate;

import java.time.Duration;

/**
 * How a relay spaces its sends of one row: the grace after the first, then twice as long after each
 * further one, up to {@code ceiling}. A row that is re-sent and still not consumed is stuck behind
 * something re-sending cannot fix quickly; sending it as often again only piles duplicates onto it.
 */
public record RelayBackoff(Duration grace, Duration ceiling) {

    public Duration after(int attemptsBefore) {
        Duration wait = grace;
        for (int i = 0; i < attemptsBefore && wait.compareTo(ceiling) < 0; i++) {
            wait = wait.multipliedBy(2);
        }
        return wait.compareTo(ceiling) < 0 ? wait : ceiling;
    }
}
