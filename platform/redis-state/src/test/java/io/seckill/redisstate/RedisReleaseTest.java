package io.seckill.redisstate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Each release line has its first fixed release; older lines are refused, newer ones taken. */
class RedisReleaseTest {

    private static String redis(String version) {
        return "# Server\r\nredis_version:" + version + "\r\nredis_mode:standalone\r\n";
    }

    @Test
    void aReleaseBelowItsLinesFixIsLackingAndNamesTheReleaseToUpgradeTo() {
        assertThat(RedisRelease.lacking(redis("7.4.5")))
                .hasValueSatisfying(why -> assertThat(why).contains("7.4.5", "CVE-2025-49844", "7.4.6"));
        assertThat(RedisRelease.lacking(redis("6.2.19"))).isPresent();
        assertThat(RedisRelease.lacking(redis("8.2.1"))).isPresent();
        assertThat(RedisRelease.lacking(redis("7.0.15"))).as("a line with no fixed release").isPresent();
    }

    @Test
    void theFixedReleasesAndLaterOnesAreTaken() {
        for (String fixed : new String[] {"6.2.20", "7.2.11", "7.4.6", "7.4.7", "8.0.4", "8.2.2", "8.4.0", "9.0.1"}) {
            assertThat(RedisRelease.lacking(redis(fixed))).as(fixed).isEmpty();
        }
    }

    @Test
    void valkeyIsJudgedByItsOwnReleases() {
        String valkey = "# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.1.4\r\n";
        assertThat(RedisRelease.lacking(valkey)).isEmpty();
        assertThat(RedisRelease.lacking(valkey.replace("8.1.4", "8.1.3")))
                .hasValueSatisfying(why -> assertThat(why).contains("Valkey"));
    }
}
