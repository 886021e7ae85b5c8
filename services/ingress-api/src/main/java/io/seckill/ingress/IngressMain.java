package io.seckill.ingress;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.config.KafkaPrincipal;
import io.seckill.runtime.ServiceMain;

/** Runs the ingress-api as its own process, configured from the environment. */
public final class IngressMain {

    /** Its management port when SECKILL_MANAGEMENT_PORT is unset. */
    public static final int MANAGEMENT_PORT = 9081;

    private IngressMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        ServiceMain.run(
                "ingress-api",
                MANAGEMENT_PORT,
                env,
                given -> IngressConfig.from(given, InfraAddresses.forRedisUser(given, KafkaPrincipal.INGRESS)),
                IngressApi::start);
    }
}
