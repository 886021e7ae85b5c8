package io.seckill.reconciler;

import io.seckill.config.Env;
import io.seckill.config.InfraAddresses;
import io.seckill.runtime.ServiceMain;

/** Runs the reconciler as its own process, configured from the environment. */
public final class ReconcilerMain {

    private ReconcilerMain() {
    }

    public static void main(String[] args) {
        Env env = Env.system();
        ServiceMain.runUntilStopped(Reconciler.start(ReconcilerConfig.from(env, InfraAddresses.from(env))));
    }
}
