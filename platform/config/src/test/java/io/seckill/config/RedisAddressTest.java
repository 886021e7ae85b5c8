package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RedisAddressTest {

    @Test
    void aSingleNodeByDefault() {
        RedisAddress address = RedisAddress.from(new Env(Map.of()));

        assertThat(address.topology()).isEqualTo(RedisAddress.Topology.SINGLE);
        assertThat(address.nodes()).containsExactly(new RedisAddress.Node("localhost", 6379));
    }

    @Test
    void aClusterIsFoundFromItsSeedsWithOneLogin() {
        RedisAddress address = RedisAddress.from(new Env(Map.of(RedisAddress.TOPOLOGY, "cluster",
                RedisAddress.URL, "rediss://seckill:s3cret-p@ss@10.0.0.1:7000,10.0.0.2:7001")));

        assertThat(address.nodes())
                .containsExactly(new RedisAddress.Node("10.0.0.1", 7000), new RedisAddress.Node("10.0.0.2", 7001));
        assertThat(address.firstNodeUri()).isEqualTo(URI.create("rediss://seckill:s3cret-p@ss@10.0.0.1:7000"));
        assertThat(address.toString())
                .as("never the password")
                .doesNotContain("s3cret")
                .contains("seckill:***@10.0.0.1:7000,10.0.0.2:7001", "cluster");
    }

    @Test
    void settingsItCannotUseAreRefusedNamingTheSetting() {
        List.of(
                        Map.of(RedisAddress.TOPOLOGY, "sentinel"),
                        Map.of(RedisAddress.URL, "redis://a:1,b:2"),
                        Map.of(RedisAddress.TOPOLOGY, "cluster", RedisAddress.URL, "redis://a:7000/3"),
                        Map.of(RedisAddress.URL, "http://a:1"),
                        Map.of(RedisAddress.URL, "redis://a"))
                .forEach(settings -> assertThatThrownBy(() -> RedisAddress.from(new Env(settings)))
                        .as(settings.toString())
                        .isInstanceOf(IllegalArgumentException.class)
                        .hasMessageContaining("SECKILL_REDIS_"));
    }

    @Test
    void aPasswordNeverAppearsInAnError() {
        assertThatThrownBy(() -> RedisAddress.single("redis://user:hunter2-secret@host"))
                .isInstanceOf(IllegalArgumentException.class).message().doesNotContain("hunter2");
    }
}
