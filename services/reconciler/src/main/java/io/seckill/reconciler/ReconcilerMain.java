package io.seckill.reconciler;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.runtime.ServiceMain;

/** Runs the reconciler as its own process, configured from the environment. */
public final class ReconcilerMain {

    /** Its management port when SECKILL_MANAGEMENT_PORT is unset. */
    public static final int MANAGEMENT_PORT = 9084;

    private ReconcilerMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        ServiceMain.run(
                "reconciler",
                MANAGEMENT_PORT,
                env,
                given -> ReconcilerConfig.from(given, InfraAddresses.forRedisUser(given, KafkaPrincipal.RECONCILER)),
                Reconciler::start);
    }
}
