package io.seckill.localinfra;

/** A server this JVM started; {@link #address()} is what clients connect to. */
interface RunningServer extends AutoCloseable {

    String address();

    @Override
    void close();
}
