package io.seckill.ingress.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TrustedProxiesTest {

    private final TrustedProxies proxies = TrustedProxies.parse("10.0.0.0/8, 192.168.1.7, fd00::/8");

    @Test
    void aPeerThatIsNoTrustedProxyIsCountedByItsOwnAddressWhateverItClaims() {
        assertThat(proxies.clientAddress("203.0.113.9", "198.51.100.1")).isEqualTo("203.0.113.9");
        assertThat(TrustedProxies.parse("").clientAddress("10.1.2.3", "198.51.100.1")).as("no proxy trusted by default").isEqualTo("10.1.2.3");
    }

    @Test
    void throughTrustedProxiesTheClientIsTheRightmostAddressNoneOfThemWrote() {
        assertThat(proxies.clientAddress("10.1.2.3", "198.51.100.1")).isEqualTo("198.51.100.1");
        assertThat(proxies.clientAddress("10.1.2.3", "6.6.6.6, 198.51.100.1, 192.168.1.7")).as("the client's own entries are left of it")
                .isEqualTo("198.51.100.1");
        assertThat(proxies.clientAddress("fd00::1", "2001:db8::5, fd12::3")).isEqualTo("2001:db8::5");
        assertThat(proxies.clientAddress("10.1.2.3", "10.9.9.9, 192.168.1.7")).as("every hop a proxy: the first").isEqualTo("10.9.9.9");
    }

    @Test
    void aHopThatIsNoAddressIsNotCountedBy() {
        assertThat(proxies.clientAddress("10.1.2.3", "198.51.100.1, evil.example")).isEqualTo("10.1.2.3");
        assertThat(proxies.clientAddress("10.1.2.3", "")).isEqualTo("10.1.2.3");
        assertThat(proxies.clientAddress("10.1.2.3", null)).isEqualTo("10.1.2.3");
    }

    @Test
    void anEntryThatIsNeitherAnAddressNorARangeIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> TrustedProxies.parse("10.0.0.0/8, proxy.internal")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TrustedProxies.SETTING).hasMessageContaining("proxy.internal");
        assertThatThrownBy(() -> TrustedProxies.parse("10.0.0.0/99")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TrustedProxies.SETTING);
    }
}
