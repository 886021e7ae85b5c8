package io.seckill.streamprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.config.KafkaSecurity;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamProcessorConfigTest {

    @Test
    void commitsEveryTenthOfASecondUnlessTold() {
        assertThat(config(Map.of()).commitInterval()).isEqualTo(Duration.ofMillis(100));
        assertThat(config(Map.of("SECKILL_STREAMS_COMMIT_INTERVAL_MS", "30")).commitInterval())
                .isEqualTo(Duration.ofMillis(30));
    }

    @Test
    void refusesACommitIntervalThatNeverCommitsOrOutlivesTheTransaction() {
        for (String refused : new String[] {"0", "-5", "1001", "60000"}) {
            assertThatThrownBy(() -> config(Map.of("SECKILL_STREAMS_COMMIT_INTERVAL_MS", refused)))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("SECKILL_STREAMS_COMMIT_INTERVAL_MS must be 1 to 1000 ms, was " + refused);
        }
    }

    private static StreamProcessorConfig config(Map<String, String> variables) {
        Env env = new Env(variables).withDefault(KafkaSecurity.PASSWORD, "a-kafka-password");
        return StreamProcessorConfig.from(env, InfraAddresses.from(env, KafkaPrincipal.STREAM_PROCESSOR));
    }
}
