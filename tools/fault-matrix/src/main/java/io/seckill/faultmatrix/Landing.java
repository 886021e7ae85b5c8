package io.seckill.faultmatrix;

/**
 * What a row's fault met in the sale, counted from outside the code it tests (the stores, the broker, the processes):
 * open reservations, orders recorded and undecided, reservations fenced, records re-sent, buckets rebuilt, the
 * partitions a struck process owned. A fault that met nothing of the sale did not land: its row fails, whatever
 * its promises.
 * @param count how many of {@code what} the fault met
 * @param what what was counted, as the row prints it after the count
 */
record Landing(long count, String what) {

    boolean reached() {
        return count > 0;
    }

    String describe() {
        return (reached() ? "" : "DID NOT LAND: ") + count + " " + what;
    }
}
