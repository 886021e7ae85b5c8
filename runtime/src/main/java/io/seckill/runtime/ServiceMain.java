package io.seckill.runtime;

import java.util.concurrent.CountDownLatch;

/** Keeps a service's main thread alive until SIGTERM/Ctrl-C, then closes the service once. */
public final class ServiceMain {

    private ServiceMain() {
    }

    public static void runUntilStopped(AutoCloseable service) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                service.close();
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "service-stop"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
