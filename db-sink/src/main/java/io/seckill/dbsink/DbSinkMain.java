package io.seckill.dbsink;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.runtime.ServiceMain;

/** Runs the db-sink as its own process, configured from the environment. */
public final class DbSinkMain {

    private DbSinkMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        ServiceMain.runUntilStopped(DbSink.start(DbSinkConfig.from(env, InfraAddresses.from(env))));
    }
}
