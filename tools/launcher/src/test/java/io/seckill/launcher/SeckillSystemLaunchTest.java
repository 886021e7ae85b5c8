package io.seckill.launcher;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaAccess;
import io.seckill.config.KafkaSecurity;
import io.seckill.config.RedisAddress;
import io.seckill.runtime.TestHost;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A mistyped SECKILL_LAUNCH is refused before anything starts, naming what it did not know. */
class SeckillSystemLaunchTest {

    /** Nothing listens here: a launch that got past the check would fail differently. */
    private static final InfraAddresses NOWHERE = new InfraAddresses("jdbc:mysql://127.0.0.1:1/none", "nobody", "",
            RedisAddress.single("redis://127.0.0.1:1"), new KafkaAccess("127.0.0.1:1", KafkaSecurity.plaintext()));

    @ParameterizedTest
    @ValueSource(strings = {"ingress-api,sink", "ingress-api,api", "ingress-api,,db-sink", "ingress-api,db-sinks"})
    void anUnknownServiceNameIsRefused(String launch) {
        assertThatThrownBy(() -> SeckillSystem.start(
                        new Env(Map.of(SeckillSystem.LAUNCH, launch)), _ -> NOWHERE, new TestHost().host()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown");
    }

    @ParameterizedTest
    @ValueSource(strings = {"db-sink", "stream-processor,reconciler"})
    void aLaunchWithoutTheIngressIsRefused(String launch) {
        assertThatThrownBy(() -> SeckillSystem.start(
                        new Env(Map.of(SeckillSystem.LAUNCH, launch)), _ -> NOWHERE, new TestHost().host()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("always ingress-api");
    }
}
