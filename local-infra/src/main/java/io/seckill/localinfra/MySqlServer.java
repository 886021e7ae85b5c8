package io.seckill.localinfra;

/** A MySQL-compatible server with a {@code seckill} database; {@link #address()} is its JDBC URL. */
interface MySqlServer extends RunningServer {

    String user();

    String password();
}
