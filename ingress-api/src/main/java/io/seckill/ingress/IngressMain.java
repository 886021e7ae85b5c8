package io.seckill.ingress;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.runtime.ServiceMain;

/** Runs the ingress-api as its own process, configured from the environment. */
public final class IngressMain {

    private IngressMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        ServiceMain.runUntilStopped(IngressApi.start(IngressConfig.from(env, InfraAddresses.from(env))));
    }
}
