package io.seckill.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A winner whose outbox row cannot be written gets 503 and keeps nothing: the reservation goes back
 * to Redis (stock and the buyer's slot). The failure is real: a trigger makes MySQL refuse the insert.
 */
class OutboxFailureTest {

    private final Pipeline pipeline = Pipeline.get();

    @Test
    void aFailedOutboxInsertReleasesTheReservationAndAnswers503() {
        long sku = Pipeline.newSkuId();
        pipeline.http.openSale(sku, 5, 1);
        String trigger = "refuse_outbox_" + sku;
        pipeline.sql().execute("CREATE TRIGGER " + trigger + " BEFORE INSERT ON outbox FOR EACH ROW "
                + "BEGIN IF NEW.aggregateid = '" + sku + "' THEN "
                + "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'outbox refused by test'; END IF; END");
        HttpApi.Reply refused;
        try {
            refused = pipeline.http.buy(sku, "unlucky", 1);
        } finally {
            pipeline.sql().execute("DROP TRIGGER " + trigger);
        }

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.code()).isEqualTo("SERVICE_UNAVAILABLE");
        assertThat(pipeline.saleStore.state(sku).stock()).isEqualTo(5);
        assertThat(pipeline.saleStore.state(sku).pending()).isZero();
        assertThat(pipeline.saleStore.heldBy(sku, "unlucky")).isZero();
        assertThat(pipeline.http.buy(sku, "unlucky", 1).status()).isEqualTo(202);
    }
}
