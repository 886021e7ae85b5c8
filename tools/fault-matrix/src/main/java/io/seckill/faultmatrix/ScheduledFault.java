package io.seckill.faultmatrix;

import java.util.Locale;

/**
 * One fault of a sale's schedule: {@code action} on {@code target} (a service, or null for a server or a
 * repair), {@code atMillis} after the sale's first buyer, held {@code forMillis} (a pause's length, the
 * time a killed process stays down).
 */
record ScheduledFault(NemesisAction action, String target, long atMillis, long forMillis) {

    String describe() {
        return String.format(
                Locale.ROOT, "+%d ms %s%s for %d ms", atMillis, action, target == null ? "" : " " + target, forMillis);
    }
}
