package io.seckill.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.ingress.http.Reply;
import org.junit.jupiter.api.Test;

/**
 * A winner whose outbox row cannot be written gets 503 and keeps nothing: the reservation goes back
 * to Redis (stock and the buyer's slot). The failure is real: a trigger makes MySQL refuse the insert.
 */
class OutboxFailureIT {

    private final IngressFixture fixture = IngressFixture.get();

    @Test
    void aFailedOutboxInsertReleasesTheReservationAndAnswers503() {
        long sku = IngressFixture.newSkuId();
        fixture.http.openSale(sku, 5, 1);
        String trigger = "refuse_outbox_" + sku;
        fixture.sql().execute("CREATE TRIGGER " + trigger + " BEFORE INSERT ON outbox FOR EACH ROW "
                + "BEGIN IF NEW.aggregateid = '" + sku + "' THEN "
                + "SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'outbox refused by test'; END IF; END");
        HttpApi.Reply refused;
        try {
            refused = fixture.http.buy(sku, "unlucky", 1);
        } finally {
            fixture.sql().execute("DROP TRIGGER " + trigger);
        }

        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.code()).isEqualTo("SERVICE_UNAVAILABLE");
        assertThat(fixture.saleStore.state(sku).stock()).isEqualTo(5);
        assertThat(fixture.saleStore.state(sku).pending()).isZero();
        assertThat(fixture.probe.heldBy(sku, "unlucky")).isZero();
        assertThat(fixture.http.buy(sku, "unlucky", 1).status()).isEqualTo(202);
    }
}
