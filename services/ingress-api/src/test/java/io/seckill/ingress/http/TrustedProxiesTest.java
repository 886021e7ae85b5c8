package io.seckill.ingress.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class TrustedProxiesTest {

    private final TrustedProxies proxies = TrustedProxies.parse("10.0.0.0/8, 192.168.1.7, fd00::/8");

    @Test
    void aPeerThatIsNoTrustedProxyIsCountedByItsOwnAddressWhateverItClaims() {
        assertThat(proxies.clientAddress("203.0.113.9", List.of("198.51.100.1"))).isEqualTo("203.0.113.9");
        assertThat(TrustedProxies.parse("").clientAddress("10.1.2.3", List.of("198.51.100.1")))
                .as("no proxy trusted by default")
                .isEqualTo("10.1.2.3");
    }

    @Test
    void throughTrustedProxiesTheClientIsTheRightmostAddressNoneOfThemWrote() {
        assertThat(proxies.clientAddress("10.1.2.3", List.of("198.51.100.1"))).isEqualTo("198.51.100.1");
        assertThat(proxies.clientAddress("10.1.2.3", List.of("6.6.6.6, 198.51.100.1, 192.168.1.7")))
                .as("the client's own entries are left of it")
                .isEqualTo("198.51.100.1");
        assertThat(proxies.clientAddress("fd00::1", List.of("2001:db8::5, fd12::3"))).isEqualTo("2001:db8::5");
    }

    @Test
    void everyHeaderLineCountsInOrder() {
        assertThat(proxies.clientAddress("10.1.2.3", List.of("6.6.6.6", "198.51.100.1, 10.9.9.9")))
                .isEqualTo("198.51.100.1");
        assertThat(proxies.clientAddress("10.1.2.3", List.of("198.51.100.1", "203.0.113.4")))
                .as("a proxy's own line last")
                .isEqualTo("203.0.113.4");
    }

    /**
     * The leftmost entry could be the client's own invention, a proxy's address among them: nothing there names a
     * client.
     */
    @Test
    void whenEveryHopIsATrustedProxyTheRequestIsCountedByItsPeer() {
        assertThat(proxies.clientAddress("10.1.2.3", List.of("10.9.9.9, 192.168.1.7"))).isEqualTo("10.1.2.3");
    }

    @Test
    void aHopThatIsNoAddressIsNotCountedBy() {
        assertThat(proxies.clientAddress("10.1.2.3", List.of("198.51.100.1, evil.example"))).isEqualTo("10.1.2.3");
        assertThat(proxies.clientAddress("10.1.2.3", List.of(""))).isEqualTo("10.1.2.3");
        assertThat(proxies.clientAddress("10.1.2.3", List.of())).isEqualTo("10.1.2.3");
    }

    @Test
    void limitsCountAnIpv6ClientByItsSlash64AndAnIpv4ClientByItself() {
        assertThat(TrustedProxies.countedAs("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).isEqualTo("2001:db8:1:2::/64");
        assertThat(TrustedProxies.countedAs("2001:db8:1:2::7")).isEqualTo("2001:db8:1:2::/64");
        assertThat(TrustedProxies.countedAs("2001:db8:1:3::7")).isEqualTo("2001:db8:1:3::/64");
        assertThat(TrustedProxies.countedAs("198.51.100.1")).isEqualTo("198.51.100.1");
        assertThat(TrustedProxies.countedAs("::ffff:198.51.100.1"))
                .as("IPv4 written as IPv6")
                .isEqualTo("198.51.100.1");
    }

    @Test
    void anEntryThatIsNeitherAnAddressNorARangeIsRefusedNamingTheSetting() {
        assertThatThrownBy(() -> TrustedProxies.parse("10.0.0.0/8, proxy.internal"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TrustedProxies.SETTING)
                .hasMessageContaining("proxy.internal");
        assertThatThrownBy(() -> TrustedProxies.parse("10.0.0.0/99")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(TrustedProxies.SETTING);
    }
}
