package io.seckill.streamprocessor;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.runtime.ServiceMain;

/** Runs the stream-processor as its own process, configured from the environment. */
public final class StreamProcessorMain {

    private StreamProcessorMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        ServiceMain.runUntilStopped(StreamProcessor.start(StreamProcessorConfig.from(env, InfraAddresses.from(env))));
    }
}
