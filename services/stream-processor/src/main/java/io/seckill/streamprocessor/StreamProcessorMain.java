package io.seckill.streamprocessor;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.runtime.ServiceMain;

/** Runs the stream-processor as its own process, configured from the environment. */
public final class StreamProcessorMain {

    /** Its management port when SECKILL_MANAGEMENT_PORT is unset. */
    public static final int MANAGEMENT_PORT = 9082;

    private StreamProcessorMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        ServiceMain.run(
                "stream-processor",
                MANAGEMENT_PORT,
                env,
                given -> StreamProcessorConfig.from(given, InfraAddresses.from(given, KafkaPrincipal.STREAM_PROCESSOR)),
                StreamProcessor::start);
    }
}
