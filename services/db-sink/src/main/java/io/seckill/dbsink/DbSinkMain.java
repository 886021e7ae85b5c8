package io.seckill.dbsink;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.runtime.ServiceMain;

/** Runs the db-sink as its own process, configured from the environment. */
public final class DbSinkMain {

    /** Its management port when SECKILL_MANAGEMENT_PORT is unset. */
    public static final int MANAGEMENT_PORT = 9083;

    private DbSinkMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        ServiceMain.run(
                "db-sink",
                MANAGEMENT_PORT,
                env,
                given -> DbSinkConfig.from(given, InfraAddresses.forMySqlUser(given, KafkaPrincipal.DB_SINK)),
                DbSink::start);
    }
}
