package io.seckill.ingress.buying;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class OrderIdsTest {

    @Test
    void orderIdsAreDistinctLowerCaseVersion7Uuids() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            String id = OrderIds.next();
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.version()).isEqualTo(7);
            assertThat(uuid.variant()).isEqualTo(2);
            assertThat(id).matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
            seen.add(id);
        }
        assertThat(seen).hasSize(100_000);
    }

    @Test
    void theIdStartsWithItsMillisecondSoLaterIdsSortAfterEarlierOnes() {
        long millis = 1_796_000_000_123L;
        String id = OrderIds.next(millis);

        assertThat(UUID.fromString(id).getMostSignificantBits() >>> 16).isEqualTo(millis);
        assertThat(OrderIds.next(millis + 1)).isGreaterThan(id);
        assertThat(OrderIds.next(millis + 1)).isGreaterThan(OrderIds.next(millis));
    }
}
